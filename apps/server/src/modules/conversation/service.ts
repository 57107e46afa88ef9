import type { Selectable } from 'kysely';
import type { AppContext } from '../../context.js';
import type { ConversationTable } from '../../db/tables/chat.js';
import type { ChatMessage, StoredReference } from '../../chat/types.js';
import {
  EMPTY_REFERENCE,
  deleteMessage,
  thumbMessage,
  withAnswer,
  withQuestion,
} from '../../chat/history.js';
import { parseJson, toJson } from '../../db/json.js';
import { errors } from '../../http/envelope.js';
import {
  accessScopeOf,
  assertDialogConversations,
  loadConversationRows,
  loadDialog,
  refusals,
} from '../../policy/index.js';
import { newId } from '../../util/ids.js';
import { creationStamps, updateStamps } from '../../util/time.js';
import { dialogConfigOf, type DialogRow } from '../dialog/service.js';
import { bumpThumbUp, recordSession } from '../api/stats.js';

export type ConversationRow = Selectable<ConversationTable>;

export interface LoadedConversation {
  conv: ConversationRow;
  dialog: DialogRow;
  message: ChatMessage[];
  reference: unknown[];
}

/**
 * A conversation the caller may use (policy: its assistant, whatever the assistant's status, belongs
 * to the caller's tenant). Unknown → 102 "Conversation not found!"; someone else's → `foreign`
 * (routes differ: get/rm answer 103, the others the same 102 as unknown).
 */
export async function loadConversation(
  ctx: AppContext,
  userId: string,
  conversationId: string,
  foreign: 'not-found' | 'owner' = 'not-found',
): Promise<LoadedConversation> {
  const db = ctx.db.kysely;
  const { conv, dialog } = await loadConversationRows(
    db,
    await accessScopeOf(db, userId),
    conversationId,
    'read',
    foreign === 'owner' ? refusals.conversationOwner : undefined,
  );
  return {
    conv,
    dialog,
    message: parseJson<ChatMessage[]>(conv.message, []),
    reference: parseJson<unknown[]>(conv.reference, []),
  };
}

/** A live dialog of the caller's tenant for a new conversation, or 102 "Dialog not found". */
async function dialogForNew(ctx: AppContext, userId: string, dialogId: unknown): Promise<DialogRow> {
  const db = ctx.db.kysely;
  return loadDialog(db, await accessScopeOf(db, userId), dialogId, 'read', refusals.dialogNotFoundBare);
}

function cutName(name: string | null | undefined): string {
  return [...(name ?? 'New conversation')].slice(0, 255).join('');
}

export async function createConversation(
  ctx: AppContext,
  userId: string,
  input: { conversation_id?: string | null; dialog_id?: string | null; name?: string | null },
) {
  const dialog = await dialogForNew(ctx, userId, input.dialog_id);
  const id = input.conversation_id || newId();
  const exists = await ctx.db.kysely
    .selectFrom('conversation')
    .select('id')
    .where('id', '=', id)
    .executeTakeFirst();
  if (exists) throw errors.data('Conversation already exists!');
  const row = {
    id,
    dialog_id: dialog.id,
    name: cutName(input.name),
    message: [{ role: 'assistant', content: dialogConfigOf(dialog).prompt_config.prologue }],
    user_id: userId,
    reference: [] as unknown[],
  };
  await ctx.db.kysely
    .insertInto('conversation')
    .values({ ...row, message: toJson(row.message), reference: toJson(row.reference), ...creationStamps() })
    .execute();
  return row;
}

export async function renameConversation(
  ctx: AppContext,
  userId: string,
  id: string,
  name: string | null | undefined,
) {
  const loaded = await loadConversation(ctx, userId, id);
  const stamps = updateStamps();
  const changes = name === undefined ? {} : { name: cutName(name) };
  await ctx.db.kysely
    .updateTable('conversation')
    .set({ ...changes, ...stamps })
    .where('id', '=', id)
    .execute();
  return { ...loaded, conv: { ...loaded.conv, ...changes, ...stamps } };
}

export async function listConversations(ctx: AppContext, userId: string, dialogId: string) {
  const db = ctx.db.kysely;
  await assertDialogConversations(db, await accessScopeOf(db, userId), dialogId);
  return ctx.db.kysely
    .selectFrom('conversation')
    .selectAll()
    .where('dialog_id', '=', dialogId)
    .orderBy('create_time', 'desc')
    .execute();
}

/** Hard delete, all or nothing. */
export async function removeConversations(ctx: AppContext, userId: string, ids: string[]): Promise<void> {
  const db = ctx.db.kysely;
  const scope = await accessScopeOf(db, userId);
  for (const id of ids) await loadConversationRows(db, scope, id, 'manage');
  if (ids.length === 0) return;
  await ctx.db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('conversation').where('id', 'in', ids).execute();
  });
}

async function save(ctx: AppContext, id: string, message: ChatMessage[], reference: unknown[]) {
  const stamps = updateStamps();
  await ctx.db.kysely
    .updateTable('conversation')
    .set({ message: toJson(message), reference: toJson(reference), ...stamps })
    .where('id', '=', id)
    .execute();
  return stamps;
}

export async function deleteConversationMessage(
  ctx: AppContext,
  userId: string,
  id: string,
  messageId: string,
) {
  const loaded = await loadConversation(ctx, userId, id);
  const next = deleteMessage(loaded.message, loaded.reference, messageId);
  const stamps = await save(ctx, id, next.message, next.reference);
  return { ...loaded, ...next, conv: { ...loaded.conv, ...stamps } };
}

export async function thumbConversationMessage(
  ctx: AppContext,
  userId: string,
  input: { conversation_id: string; message_id: string; thumbup?: boolean | null; feedback?: string | null },
) {
  const loaded = await loadConversation(ctx, userId, input.conversation_id);
  const up = input.thumbup === true;
  const { message, changed } = thumbMessage(loaded.message, input.message_id, up, input.feedback);
  const before =
    loaded.message.find((m) => m.role === 'assistant' && m.id === input.message_id)?.thumbup === true;
  const stamps = await save(ctx, loaded.conv.id, message, loaded.reference);
  if (changed && before !== up) await bumpThumbUp(ctx, loaded.conv.id, up ? 1 : -1);
  return { ...loaded, message, conv: { ...loaded.conv, ...stamps } };
}

/**
 * How a web completion saves as it goes (`ConversationStore` of completion.ts): the question first,
 * what was streamed when the client left, or the conversation as it was when the answer failed.
 */
export function conversationStore(
  ctx: AppContext,
  loaded: LoadedConversation,
  requestMessages: ChatMessage[],
) {
  return {
    question: async () => {
      const asked = withQuestion(requestMessages, loaded.reference);
      await save(ctx, loaded.conv.id, asked.message, asked.reference);
    },
    partial: async (answer: ChatMessage | null) => {
      if (!answer) return; // the question alone was saved before the model was asked
      const next = withAnswer(requestMessages, loaded.reference, answer, { ...EMPTY_REFERENCE });
      await save(ctx, loaded.conv.id, next.message, next.reference);
    },
    restore: async () => {
      const { message, reference, update_time, update_date } = loaded.conv;
      await ctx.db.kysely
        .updateTable('conversation')
        .set({
          message: toJson(parseJson(message, [])),
          reference: toJson(parseJson(reference, [])),
          update_time,
          update_date,
        })
        .where('id', '=', loaded.conv.id)
        .execute();
    },
  };
}

/**
 * Persists one successful answer (called after the whole answer was produced) and counts it in the
 * assistant's statistics. An abandoned answer is kept by `conversationStore` without statistics.
 */
export async function saveAnswer(
  ctx: AppContext,
  loaded: LoadedConversation,
  requestMessages: ChatMessage[],
  answer: ChatMessage,
  reference: StoredReference,
  stats: { tokens: number; durationS: number },
): Promise<void> {
  const next = withAnswer(requestMessages, loaded.reference, answer, reference);
  await save(ctx, loaded.conv.id, next.message, next.reference);
  await recordSession(ctx, {
    id: loaded.conv.id,
    dialogId: loaded.dialog.id,
    userId: loaded.conv.user_id,
    source: 'dialog',
    tokens: stats.tokens,
    durationS: stats.durationS,
  });
}

export function messagesOf(row: ConversationRow): ChatMessage[] {
  return parseJson<ChatMessage[]>(row.message, []);
}

export function referencesOf(row: ConversationRow): unknown[] {
  return parseJson<unknown[]>(row.reference, []);
}

/**
 * The legacy external chat API (API.md §10): assistant API keys authenticate `/v1/api/*` calls;
 * sessions live in `api_4_conversation` with the end user's id; each answered round adds its tokens,
 * duration and round to the session for the statistics.
 */
import { sql, type Selectable } from 'kysely';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Api4ConversationTable } from '../../db/tables/chat.js';
import type { ChatMessage, StoredReference } from '../../chat/types.js';
import { parseJson, toJson } from '../../db/json.js';
import type { ApiTokenTable } from '../../db/types.js';
import { credentialOf } from '../../http/auth.js';
import { errors } from '../../http/envelope.js';
import { accessScopeOf, loadDialog, mayUseSessionDialog, refusals } from '../../policy/index.js';
import { newId } from '../../util/ids.js';
import { creationStamps, updateStamps } from '../../util/time.js';
import { dialogConfigOf, type DialogRow } from '../dialog/service.js';

export type SessionRow = Selectable<Api4ConversationTable>;

const INVALID_KEY = 'Authentication error: API key is invalid!';

/** The API key of the request (`Authorization: Bearer <key>`), or 109. */
export async function apiKeyOf(ctx: AppContext, req: FastifyRequest): Promise<ApiTokenTable> {
  const key = credentialOf(req);
  // The key itself, or its beta token: embed/share pages carry only the beta token (API.md §1.4),
  // and it opens sessions on the same assistant as its key.
  const hash = key ? ctx.secrets.mac(key) : undefined;
  const row = hash
    ? await ctx.db.kysely
        .selectFrom('api_token')
        .selectAll()
        .where((eb) => eb.or([eb('token_hash', '=', hash), eb('beta_hash', '=', hash)]))
        .executeTakeFirst()
    : undefined;
  if (!row) throw errors.auth(INVALID_KEY, false);
  return row;
}

/** The key acts as the owner of its tenant (API.md §1.4). */
async function keyScope(ctx: AppContext, key: ApiTokenTable) {
  return accessScopeOf(ctx.db.kysely, key.tenant_id);
}

/** GET /v1/api/new_conversation: a session on the key's assistant for end user `userId`. */
export async function newSession(ctx: AppContext, key: ApiTokenTable, userId: string) {
  if (key.source === 'agent') {
    // Agent keys open sessions on a canvas; canvases (user_canvas) arrive with the agent issue.
    throw errors.data('canvas not found.');
  }
  // A live assistant of the key's tenant, else 102 "Dialog not found".
  const dialog = await loadDialog(
    ctx.db.kysely,
    await keyScope(ctx, key),
    key.dialog_id || null,
    'read',
    refusals.dialogNotFoundBare,
  );
  return newDialogSession(ctx, dialog, userId);
}

/**
 * A new embed/API session (`api_4_conversation`, no source) on an assistant for end user `userId`,
 * opening with the assistant's prologue.
 */
export async function newDialogSession(ctx: AppContext, dialog: DialogRow, userId: string) {
  const session = {
    id: newId(),
    dialog_id: dialog.id,
    user_id: userId,
    message: [{ role: 'assistant', content: dialogConfigOf(dialog).prompt_config.prologue }],
  };
  await ctx.db.kysely
    .insertInto('api_4_conversation')
    .values({
      ...session,
      name: null,
      exp_user_id: null,
      message: toJson(session.message),
      reference: toJson([]),
      tokens: 0,
      source: null,
      dsl: toJson({}),
      duration: 0,
      round: 0,
      thumb_up: 0,
      errors: null,
      ...creationStamps(),
    })
    .execute();
  return session;
}

/**
 * A session the key may use: the key's own assistant (or any assistant of its tenant for a
 * system key). Web-chat statistics rows (source "dialog") are not sessions.
 */
export async function keySession(
  ctx: AppContext,
  key: ApiTokenTable,
  id: string,
  foreign: 'not-found' | 'invalid-key',
): Promise<{ session: SessionRow; dialog: DialogRow | undefined }> {
  const session = await ctx.db.kysely
    .selectFrom('api_4_conversation')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!session || session.source === 'dialog') throw errors.data('Conversation not found!');
  const dialog = await ctx.db.kysely
    .selectFrom('dialog')
    .selectAll()
    .where('id', '=', session.dialog_id)
    .executeTakeFirst();
  // The key's tenant owns the session's assistant, and an assistant key covers only its assistant.
  const mine =
    mayUseSessionDialog(await keyScope(ctx, key), dialog) &&
    (key.dialog_id === null || key.dialog_id === session.dialog_id);
  if (!mine) {
    if (foreign === 'invalid-key')
      throw errors.auth('Authentication error: API key is invalid for this conversation_id!', false);
    throw errors.data('Conversation not found!');
  }
  return { session, dialog };
}

export function sessionMessages(s: SessionRow): ChatMessage[] {
  return parseJson<ChatMessage[]>(s.message, []);
}

export function sessionReferences(s: SessionRow): unknown[] {
  return parseJson<unknown[]>(s.reference, []);
}

/** Appends the question and its answer to the session and counts the round (after success only). */
export async function appendRound(
  ctx: AppContext,
  session: SessionRow,
  question: ChatMessage,
  answer: ChatMessage,
  reference: StoredReference,
  stats: { tokens: number; durationS: number },
): Promise<void> {
  const message = [...sessionMessages(session), question, answer];
  const refs = [...sessionReferences(session).filter((r) => r !== null && r !== undefined), reference];
  await ctx.db.kysely
    .updateTable('api_4_conversation')
    .set({
      message: toJson(message),
      reference: toJson(refs),
      tokens: sql<number>`tokens + ${Math.max(0, Math.round(stats.tokens))}`,
      duration: sql<number>`duration + ${stats.durationS}`,
      round: sql<number>`${sql.ref('round')} + 1`,
      ...updateStamps(),
    })
    .where('id', '=', session.id)
    .execute();
}

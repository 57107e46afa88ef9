/**
 * Loaders of the chat area (API.md §8–§10): assistants (dialogs) and conversations. Assistants belong
 * to their tenant alone; a conversation follows its assistant's tenant. Each loader fetches and checks
 * in one call and answers with the route's refusal.
 */
import type { Kysely, Selectable } from 'kysely';
import type { ConversationTable, DialogTable } from '../db/tables/chat.js';
import type { Database } from '../db/types.js';
import { refusals, type Refusal } from './refusals.js';
import { authorize, permits, refusalFor, resource, type Action } from './rules.js';
import type { AccessScope } from './scope.js';

type Reader = Kysely<Database>;
export type DialogRow = Selectable<DialogTable>;
export type ConversationRow = Selectable<ConversationTable>;

/**
 * A live assistant the caller may `action`. Unknown, removed and foreign ids get the same answer:
 * `refusal`, else the kind's default (read: 102 "Dialog not found!", manage: 103 "Only owner of
 * dialog …"). A non-string id is unknown.
 */
export async function loadDialog(
  db: Reader,
  scope: AccessScope,
  dialogId: unknown,
  action: Action,
  refusal?: Refusal,
): Promise<DialogRow> {
  const row =
    typeof dialogId === 'string'
      ? await db
          .selectFrom('dialog')
          .selectAll()
          .where('id', '=', dialogId)
          .where('status', '=', '1')
          .executeTakeFirst()
      : undefined;
  if (!row) throw refusal ? refusal() : refusalFor('dialog', action);
  authorize(scope, action, resource.dialog(row), refusal);
  return row;
}

/**
 * `dialog/rm`: every id must be an assistant of the caller's tenant, else 103 for all (nothing is
 * removed). Tenancy only — an assistant already removed may be removed again (a success), as the
 * route has always answered. Runs in the caller's transaction.
 */
export async function assertDialogsRemovable(
  db: Reader,
  scope: AccessScope,
  dialogIds: readonly string[],
): Promise<void> {
  const unique = [...new Set(dialogIds)];
  if (unique.length === 0) return;
  const rows = await db.selectFrom('dialog').select(['id', 'tenant_id']).where('id', 'in', unique).execute();
  const mine = rows.filter((r) => permits(scope, 'manage', resource.dialog(r)));
  if (mine.length !== unique.length) throw refusals.dialogOwner();
}

/**
 * `conversation/list`: the conversations of an assistant are the assistant owner's (whatever the
 * assistant's status); anyone else, and unknown ids, get 103 "Only owner of dialog …".
 */
export async function assertDialogConversations(
  db: Reader,
  scope: AccessScope,
  dialogId: string,
): Promise<void> {
  const dialog = await db
    .selectFrom('dialog')
    .select(['tenant_id'])
    .where('id', '=', dialogId)
    .executeTakeFirst();
  if (!dialog || !permits(scope, 'read', resource.conversation(dialog))) throw refusals.dialogOwner();
}

export interface LoadedConversationRows {
  conv: ConversationRow;
  dialog: DialogRow;
}

/**
 * A conversation and its assistant (any status). Unknown id: 102 "Conversation not found!";
 * someone else's: `refusal`, else the kind's default (read: the same 102, manage: 103 "Only owner
 * of conversation …").
 */
export async function loadConversationRows(
  db: Reader,
  scope: AccessScope,
  conversationId: string,
  action: Action,
  refusal?: Refusal,
): Promise<LoadedConversationRows> {
  const conv = await db
    .selectFrom('conversation')
    .selectAll()
    .where('id', '=', conversationId)
    .executeTakeFirst();
  if (!conv) throw refusals.conversationNotFound();
  const dialog = await db
    .selectFrom('dialog')
    .selectAll()
    .where('id', '=', conv.dialog_id)
    .executeTakeFirst();
  if (!dialog) throw refusal ? refusal() : refusalFor('conversation', action);
  authorize(scope, action, resource.conversation(dialog), refusal);
  return { conv, dialog };
}

/**
 * An API-key session's assistant (`api_4_conversation.dialog_id`, any status) is reachable with the
 * key when the key's tenant owns it (the key acts as its tenant's owner, API.md §1.4).
 */
export function mayUseSessionDialog(scope: AccessScope, dialog: { tenant_id: string } | undefined): boolean {
  return !!dialog && permits(scope, 'read', resource.conversation(dialog));
}

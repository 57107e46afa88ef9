import type { AppContext } from '../../context.js';
import type { UserTable } from '../../db/types.js';
import { parseJson } from '../../db/json.js';
import { accessScopeOf, loadKb, readableDialogs } from '../../policy/index.js';

/**
 * The live assistants that use a KB (`GET /v1/kb/usage`): deleting the KB takes it from them, so
 * the UI names them before asking. `dialogs` are the caller's own (names it may see); `total`
 * counts every live assistant listing the KB — a team KB can serve teammates' assistants too.
 */
export async function kbUsage(ctx: AppContext, user: UserTable, kbId: string) {
  const db = ctx.db.kysely;
  const scope = await accessScopeOf(db, user.id);
  const kb = await loadKb(db, scope, kbId, 'read');
  let q = db.selectFrom('dialog').select(['id', 'name', 'tenant_id', 'kb_ids']).where('status', '=', '1');
  // Only the owner tenant's assistants can list a KB that is not shared with a team.
  if (kb.permission !== 'team') q = q.where('tenant_id', '=', kb.tenant_id);
  // kb_ids is a JSON column (text or jsonb by dialect): matched here rather than in SQL.
  const users = (await q.orderBy('create_time', 'desc').execute()).filter((d) =>
    parseJson<string[]>(d.kb_ids, []).includes(kb.id),
  );
  const own = new Set(
    (
      await db
        .selectFrom('dialog')
        .select('id')
        .where(readableDialogs(scope))
        .where(
          'id',
          'in',
          users.map((d) => d.id).concat(['']), // never an empty IN list
        )
        .execute()
    ).map((d) => d.id),
  );
  return {
    dialogs: users.filter((d) => own.has(d.id)).map((d) => ({ id: d.id, name: d.name })),
    total: users.length,
  };
}

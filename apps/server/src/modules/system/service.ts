import type { AppContext } from '../../context.js';
import type { ApiTokenTable } from '../../db/types.js';
import { newApiKey, newBetaToken } from '../../security/secrets.js';
import { newId } from '../../util/ids.js';
import { creationStamps, updateStamps } from '../../util/time.js';

/** Creates an API key for a tenant; `dialogId`/`source` make it an assistant or agent key. */
export async function createApiToken(
  ctx: AppContext,
  tenantId: string,
  opts: { dialogId?: string | null; source?: string | null } = {},
): Promise<ApiTokenTable> {
  const token = newApiKey();
  const beta = newBetaToken();
  const row: ApiTokenTable = {
    id: newId(),
    tenant_id: tenantId,
    token: ctx.secrets.encrypt(token),
    token_hash: ctx.secrets.mac(token),
    dialog_id: opts.dialogId ?? null,
    source: opts.source ?? null,
    beta,
    beta_hash: ctx.secrets.mac(beta),
    ...creationStamps(),
  };
  await ctx.db.kysely.insertInto('api_token').values(row).execute();
  return row;
}

/** Lists a tenant's keys; rows without a beta token get one (API.md §11). */
export async function listApiTokens(
  ctx: AppContext,
  tenantId: string,
  filter: { dialogId?: string } = {},
): Promise<ApiTokenTable[]> {
  let query = ctx.db.kysely.selectFrom('api_token').selectAll().where('tenant_id', '=', tenantId);
  if (filter.dialogId !== undefined) query = query.where('dialog_id', '=', filter.dialogId);
  const rows = await query.orderBy('create_time', 'asc').execute();
  for (const row of rows) {
    if (!row.beta) {
      row.beta = newBetaToken();
      row.beta_hash = ctx.secrets.mac(row.beta);
      await ctx.db.kysely
        .updateTable('api_token')
        .set({ beta: row.beta, beta_hash: row.beta_hash, ...updateStamps() })
        .where('id', '=', row.id)
        .execute();
    }
  }
  return rows;
}

export async function deleteApiToken(ctx: AppContext, tenantId: string, token: string): Promise<void> {
  await ctx.db.kysely
    .deleteFrom('api_token')
    .where('tenant_id', '=', tenantId)
    .where('token_hash', '=', ctx.secrets.mac(token))
    .execute();
}

/** Component health for /system/status, in the contract's slots. */
export async function systemStatus(ctx: AppContext) {
  const [database, storage, docEngine, queue] = await Promise.all([
    ctx.health.run('database'),
    ctx.health.run('storage'),
    ctx.health.run('doc_engine'),
    ctx.health.run('queue'),
  ]);
  const heartbeats = await ctx.db.kysely
    .selectFrom('kv')
    .select(['key', 'value'])
    .where('key', 'like', 'heartbeat:%')
    .where('update_time', '>', Date.now() - 30 * 60_000)
    .execute();
  const task_executor_heartbeats: Record<string, unknown[]> = {};
  for (const beat of heartbeats) {
    task_executor_heartbeats[beat.key.slice('heartbeat:'.length)] = [JSON.parse(beat.value)];
  }
  return {
    doc_engine: { type: String(docEngine.type ?? 'sqlite-fts5'), ...docEngine },
    storage,
    database,
    redis: queue,
    task_executor_heartbeats,
  };
}

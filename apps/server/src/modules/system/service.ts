import type { AppContext } from '../../context.js';
import type { ApiTokenTable } from '../../db/types.js';
import { errors } from '../../http/envelope.js';
import { newApiKey, newBetaToken, tokenHint } from '../../security/secrets.js';
import { newId } from '../../util/ids.js';
import { creationStamps, updateStamps } from '../../util/time.js';

/**
 * A key row with the secrets that exist only in this answer: the key and beta token are stored as
 * keyed hashes plus hints, so the call that makes one is the only one that can show it.
 */
export interface ShownToken {
  row: ApiTokenTable;
  token?: string;
  beta?: string;
}

/** A hint not yet used by another key of the tenant, so that a delete by hint names one key. */
async function freshSecret(
  ctx: AppContext,
  tenantId: string,
  make: () => string,
  column: 'token_hint' | 'beta_hint',
): Promise<string> {
  for (;;) {
    const value = make();
    const taken = await ctx.db.kysely
      .selectFrom('api_token')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where(column, '=', tokenHint(value))
      .executeTakeFirst();
    if (!taken) return value;
  }
}

/** Creates an API key for a tenant; `dialogId`/`source` make it an assistant or agent key. */
export async function createApiToken(
  ctx: AppContext,
  tenantId: string,
  opts: { dialogId?: string | null; source?: string | null } = {},
): Promise<ShownToken> {
  const token = await freshSecret(ctx, tenantId, newApiKey, 'token_hint');
  const beta = await freshSecret(ctx, tenantId, newBetaToken, 'beta_hint');
  const row: ApiTokenTable = {
    id: newId(),
    tenant_id: tenantId,
    token_hint: tokenHint(token),
    token_hash: ctx.secrets.mac(token),
    dialog_id: opts.dialogId ?? null,
    source: opts.source ?? null,
    beta_hint: tokenHint(beta),
    beta_hash: ctx.secrets.mac(beta),
    ...creationStamps(),
  };
  await ctx.db.kysely.insertInto('api_token').values(row).execute();
  return { row, token, beta };
}

/**
 * Lists a tenant's keys (hints only); a row without a beta token gets one (API.md §11), and that
 * new beta token is in this answer once, in full.
 */
export async function listApiTokens(
  ctx: AppContext,
  tenantId: string,
  filter: { dialogId?: string } = {},
): Promise<ShownToken[]> {
  let query = ctx.db.kysely.selectFrom('api_token').selectAll().where('tenant_id', '=', tenantId);
  if (filter.dialogId !== undefined) query = query.where('dialog_id', '=', filter.dialogId);
  const rows = await query.orderBy('create_time', 'asc').execute();
  const shown: ShownToken[] = [];
  for (const row of rows) {
    if (row.beta_hash) {
      shown.push({ row });
      continue;
    }
    const beta = await freshSecret(ctx, tenantId, newBetaToken, 'beta_hint');
    const set = { beta_hint: tokenHint(beta), beta_hash: ctx.secrets.mac(beta), ...updateStamps() };
    // Only if no concurrent list gave it one first: else that list's token stands and this one is void.
    const made = await ctx.db.kysely
      .updateTable('api_token')
      .set(set)
      .where('id', '=', row.id)
      .where('beta_hash', 'is', null)
      .executeTakeFirst();
    if (Number(made.numUpdatedRows) === 1) shown.push({ row: { ...row, ...set }, beta });
    else {
      const now = await ctx.db.kysely
        .selectFrom('api_token')
        .selectAll()
        .where('id', '=', row.id)
        .executeTakeFirst();
      if (now) shown.push({ row: now });
    }
  }
  return shown;
}

/**
 * Deletes one key of the tenant named by the key itself or by the hint the list shows. A hint that
 * names several keys (keys from before hints were unique) is refused: the full key is needed.
 */
export async function deleteApiToken(ctx: AppContext, tenantId: string, token: string): Promise<void> {
  const byHash = await ctx.db.kysely
    .deleteFrom('api_token')
    .where('tenant_id', '=', tenantId)
    .where('token_hash', '=', ctx.secrets.mac(token))
    .executeTakeFirst();
  if (Number(byHash.numDeletedRows) > 0) return;
  const named = await ctx.db.kysely
    .selectFrom('api_token')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('token_hint', '=', token)
    .execute();
  if (named.length > 1)
    throw errors.argument('This masked key matches several API keys; delete it with the full key instead.');
  if (named.length === 1) await ctx.db.kysely.deleteFrom('api_token').where('id', '=', named[0].id).execute();
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

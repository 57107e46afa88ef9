/**
 * A tenant's tracing keys (`tenant_tracing`, API.md §14): read with the secret key opened, written
 * with it sealed by the server key, removed. The langfuse module and the tracing port share these.
 */
import type { Db } from '../db/connection.js';
import type { Secrets } from '../security/secrets.js';
import { creationStamps, updateStamps } from '../util/time.js';

export interface TracingKeys {
  host: string;
  publicKey: string;
  secretKey: string;
}

/** The host without trailing slashes: requests go to `<host>/api/public/...`. */
export function normalizeHost(host: string): string {
  return host.trim().replace(/\/+$/, '');
}

/** The tenant's keys, or null when none are stored or the secret cannot be opened (other server key). */
export async function loadTracingKeys(
  db: Db,
  secrets: Secrets,
  tenantId: string,
): Promise<(TracingKeys & { updateTime: number }) | null> {
  const row = await db.kysely
    .selectFrom('tenant_tracing')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!row) return null;
  let secretKey: string;
  try {
    secretKey = secrets.decrypt(row.secret_key);
  } catch {
    return null;
  }
  return { host: row.host, publicKey: row.public_key, secretKey, updateTime: row.update_time };
}

export async function hasTracingKeys(db: Db, tenantId: string): Promise<boolean> {
  const row = await db.kysely
    .selectFrom('tenant_tracing')
    .select('tenant_id')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return !!row;
}

/** Inserts or replaces the tenant's one row. */
export async function saveTracingKeys(
  db: Db,
  secrets: Secrets,
  tenantId: string,
  keys: TracingKeys,
): Promise<void> {
  const values = { secret_key: secrets.encrypt(keys.secretKey), public_key: keys.publicKey, host: keys.host };
  await db.kysely
    .insertInto('tenant_tracing')
    .values({ tenant_id: tenantId, ...values, ...creationStamps() })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ ...values, ...updateStamps() }))
    .execute();
}

/** Removes the tenant's row; false when there was none. */
export async function removeTracingKeys(db: Db, tenantId: string): Promise<boolean> {
  const result = await db.kysely
    .deleteFrom('tenant_tracing')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Every process that shares a database must share its secret key (LECTERN_SECRET_KEY): sessions,
 * API-key lookups and stored provider keys are sealed with it. The first process records a
 * fingerprint of its key (an HMAC, not the key); a process started with another key stops with a
 * message instead of silently failing every login and losing every stored credential.
 */
import type { Db } from './connection.js';

const KEY = 'secret_key_fingerprint';

export class SecretKeyMismatch extends Error {}

export async function checkSecretKey(db: Db, fingerprint: string): Promise<void> {
  const now = Date.now();
  await db.kysely
    .insertInto('kv')
    .values({ key: KEY, value: fingerprint, update_time: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.kysely.selectFrom('kv').select('value').where('key', '=', KEY).executeTakeFirst();
  if (row && row.value !== fingerprint)
    throw new SecretKeyMismatch(
      'This database was set up with a different secret key. Give every Lectern process that shares it the same ' +
        'LECTERN_SECRET_KEY (for a single machine: the one in <data dir>/secret.key that created it).',
    );
}

import { sql, type Kysely, type Migration } from 'kysely';
import { tokenHint } from '../../security/secrets.js';

/** What 0014 needs besides the database: opening the sealed API keys once to keep their hint. */
export interface TokenOpener {
  decrypt(sealed: string): string;
}

interface LegacyTokenRow {
  id: string;
  token: string;
  beta: string | null;
}

function openKey(opener: TokenOpener | undefined, sealed: string): string {
  if (!opener) throw new Error('Migration 0014 needs the secret key to turn stored API keys into hints.');
  try {
    return opener.decrypt(sealed);
  } catch {
    throw new Error(
      'Migration 0014 cannot open the stored API keys: start with the LECTERN_SECRET_KEY that created them.',
    );
  }
}

/**
 * Two changes (issue 11, items 5 and 10):
 *
 * 1. API keys and beta tokens are kept only as a keyed hash (`token_hash`, `beta_hash`: HMAC-SHA256
 *    with the server secret, already there) plus a short display hint (`token_hint`, `beta_hint`).
 *    The sealed key (`token`) and the plain beta token (`beta`) are turned into hints and dropped.
 * 2. `idempotency_key`: the Idempotency-Key records shared by every API process on one database
 *    (see http/idempotency.ts). Rows are transient; they expire after minutes.
 */
export function hashedTokensMigration(opener: TokenOpener | undefined): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // Hints first, before any change: a missing or wrong key stops here with nothing half done
      // (SQLite runs no DDL in a transaction).
      const rows = await sql<LegacyTokenRow>`select id, token, beta from api_token`.execute(db);
      const hints = rows.rows.map((row) => ({
        id: row.id,
        token: tokenHint(openKey(opener, row.token)),
        beta: row.beta ? tokenHint(row.beta) : null,
      }));
      await db.schema
        .alterTable('api_token')
        .addColumn('token_hint', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.alterTable('api_token').addColumn('beta_hint', 'varchar(32)').execute();
      for (const hint of hints)
        await sql`update api_token set token_hint = ${hint.token}, beta_hint = ${hint.beta}
          where id = ${hint.id}`.execute(db);
      await db.schema.alterTable('api_token').dropColumn('token').execute();
      await db.schema.alterTable('api_token').dropColumn('beta').execute();

      await db.schema
        .createTable('idempotency_key')
        .addColumn('scope_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('body_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('owner', 'varchar(32)', (c) => c.notNull())
        .addColumn('state', 'varchar(8)', (c) => c.notNull())
        .addColumn('status', 'integer')
        .addColumn('content_type', 'varchar(255)')
        .addColumn('payload', 'text')
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('idempotency_key_expires_idx')
        .on('idempotency_key')
        .column('expires_at')
        .execute();
    },

    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('idempotency_key').ifExists().execute();
      // The keys themselves are gone for good; restored rows hold their hints where the key was.
      await db.schema
        .alterTable('api_token')
        .addColumn('token', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.alterTable('api_token').addColumn('beta', 'text').execute();
      await sql`update api_token set token = token_hint, beta = beta_hint`.execute(db);
      await db.schema.alterTable('api_token').dropColumn('token_hint').execute();
      await db.schema.alterTable('api_token').dropColumn('beta_hint').execute();
    },
  };
}

import { Migrator, type MigrationProvider } from 'kysely';
import type { Db } from './connection.js';
import { migrationsFor, type MigrationDeps } from './migrations/index.js';

/**
 * Brings the schema up to date; called at start-up by every role. `deps.secrets` (the server key) is
 * needed once, by 0014, when the database holds API keys from before it.
 */
export async function migrateToLatest(db: Db, deps: MigrationDeps = {}): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrationsFor(deps) };
  const migrator = new Migrator({ db: db.kysely, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? failed?.migrationName);
    throw new Error(`Database migration failed: ${cause}`);
  }
}

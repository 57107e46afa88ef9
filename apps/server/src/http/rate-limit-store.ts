/**
 * Where rate-limit windows live, so that every API process counts the same attempts: Redis when
 * REDIS_URL is set, else the shared PostgreSQL database (the rate_limit table), else — one embedded
 * process — memory.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { Db } from '../db/connection.js';

type Window = { current: number; ttl: number };
type Done = (err: Error | null, result?: Window) => void;
/** What the plugin hands `child`: its typings say route options, at run time they carry `routeInfo`. */
interface RouteRef {
  routeInfo?: { method?: unknown; url?: unknown };
  method?: unknown;
  url?: unknown;
}

/** A @fastify/rate-limit store over the rate_limit table: one atomic upsert per attempt. */
export function databaseRateLimitStore(db: Db) {
  let writes = 0;
  return class DatabaseRateLimitStore {
    private readonly prefix: string;

    // The plugin constructs the store with its options (unused here); children pass a key prefix.
    constructor(_options?: unknown, prefix = 'lectern:') {
      this.prefix = prefix;
    }

    private rowKey(key: string): string {
      return this.prefix + crypto.createHash('sha256').update(key).digest('base64url');
    }

    incr(key: string, done: Done, timeWindow: number): void {
      const now = Date.now();
      const until = now + timeWindow;
      sql<{ count: number; reset_at: number }>`
        insert into rate_limit (key, count, reset_at) values (${this.rowKey(key)}, 1, ${until})
        on conflict (key) do update set
          count = case when rate_limit.reset_at <= ${now} then 1 else rate_limit.count + 1 end,
          reset_at = case when rate_limit.reset_at <= ${now} then ${until} else rate_limit.reset_at end
        returning count, reset_at`
        .execute(db.kysely)
        .then(
          (r) => {
            const row = r.rows[0];
            done(null, { current: Number(row.count), ttl: Math.max(0, Number(row.reset_at) - now) });
          },
          (err: Error) => done(err),
        );
      // Ended windows of keys never seen again (one e-mail tried once) are swept now and then.
      if (++writes % 200 === 0)
        void db.kysely
          .deleteFrom('rate_limit')
          .where('reset_at', '<', now)
          .execute()
          .catch(() => undefined);
    }

    read(key: string, done: Done): void {
      const now = Date.now();
      db.kysely
        .selectFrom('rate_limit')
        .select(['count', 'reset_at'])
        .where('key', '=', this.rowKey(key))
        .executeTakeFirst()
        .then(
          (row) => {
            if (!row || Number(row.reset_at) <= now) done(null, { current: 0, ttl: 0 });
            else done(null, { current: Number(row.count), ttl: Number(row.reset_at) - now });
          },
          (err: Error) => done(err),
        );
    }

    child(route: RouteRef): DatabaseRateLimitStore {
      const info = route.routeInfo ?? route;
      return new DatabaseRateLimitStore(
        undefined,
        `${this.prefix}${String(info.method)}${String(info.url)}:`,
      );
    }
  };
}

/** The plugin options choosing the store; a Redis connection is closed with the app. */
export function rateLimitStoreOptions(
  app: FastifyInstance,
  db: Db,
  redisUrl: string | undefined,
): RateLimitPluginOptions {
  if (redisUrl) {
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
    // A Redis outage must not crash the process; the plugin answers per `skipOnError`.
    redis.on('error', () => undefined);
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
    return { redis, nameSpace: 'lectern-rate-limit:', skipOnError: true };
  }
  if (db.dialect === 'postgres') return { store: databaseRateLimitStore(db) };
  return {};
}

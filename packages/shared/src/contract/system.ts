/** `/v1/system` (API.md §11). */
import { z } from 'zod';
import { apiTokenSchema, done } from './common.js';
import { route } from './route.js';

/**
 * One component's health. Not strict: each probe adds what describes its backend (`database:
 * "sqlite"`, `storage: "local"`, the chunk index's figures, the queue's depth).
 */
const componentHealth = z.object({
  status: z.enum(['green', 'red']),
  /** Milliseconds with one decimal, as a string. */
  elapsed: z.string(),
  error: z.string().optional(),
});

/** A parse worker's last heartbeat (published every few seconds while it runs). */
const heartbeatSchema = z.strictObject({
  name: z.string(),
  now: z.number(),
  pid: z.number(),
  boot_at: z.number(),
  pending: z.number(),
  done: z.number(),
  failed: z.number(),
  lag: z.number(),
});

export const systemStatusSchema = z.strictObject({
  doc_engine: componentHealth.extend({ type: z.string() }),
  storage: componentHealth,
  database: componentHealth,
  /** The queue/cache slot of the contract: reports the task queue. */
  redis: componentHealth,
  task_executor_heartbeats: z.record(z.string(), z.array(heartbeatSchema)),
});
export type SystemStatus = z.infer<typeof systemStatusSchema>;

const health = z.enum(['ok', 'nok']);

export const systemContract = {
  version: route({ method: 'GET', path: '/v1/system/version', auth: 'login', data: z.string() }),
  config: route({
    method: 'GET',
    path: '/v1/system/config',
    auth: 'public',
    data: z.strictObject({ registerEnabled: z.union([z.literal(0), z.literal(1)]) }),
  }),
  ping: route({ method: 'GET', path: '/v1/system/ping', auth: 'public', data: z.literal('pong') }),
  status: route({ method: 'GET', path: '/v1/system/status', auth: 'login', data: systemStatusSchema }),
  healthz: route({
    method: 'GET',
    path: '/v1/system/healthz',
    auth: 'public',
    kind: 'plain',
    /** HTTP 200 when every part is ok, else 500. */
    data: z.strictObject({
      database: health,
      storage: health,
      doc_engine: health,
      queue: health,
      status: health,
    }),
  }),
  newToken: route({ method: 'POST', path: '/v1/system/new_token', auth: 'login', data: apiTokenSchema }),
  tokenList: route({
    method: 'GET',
    path: '/v1/system/token_list',
    auth: 'login',
    data: z.array(apiTokenSchema),
  }),
  removeToken: route({ method: 'DELETE', path: '/v1/system/token/:token', auth: 'login', data: done }),
};

import { sendJson, startStandin, type Standin } from './common.js';

/**
 * Langfuse public API stand-in (API.md §14 tracing host): `GET /api/public/projects` and
 * `POST /api/public/ingestion` with Basic auth `<public key>:<secret key>`, answering as Langfuse
 * does (401 for unknown keys, 207 with `{successes, errors}` for a batch), and recording every
 * accepted batch.
 *
 *   const lf = await startLangfuseStandin({ publicKey: 'pk-lf-1', secretKey: 'sk-lf-1' });
 *   // set keys with host = lf.origin, run a chat, await server.ctx.tracing.flush()
 *   lf.traces()   // trace-create bodies;  lf.observations(traceId)  // its span/generation bodies
 */
export interface LangfuseEvent {
  id: string;
  timestamp: string;
  type: string;
  body: Record<string, unknown> & { id: string; traceId?: string; name?: string };
}

export interface LangfuseStandin extends Standin {
  project: { id: string; name: string };
  /** Every event of every accepted batch, in arrival order. */
  events(): LangfuseEvent[];
  /** Accepted ingestion requests. */
  batches(): LangfuseEvent[][];
  traces(): LangfuseEvent['body'][];
  /** The span-create and generation-create bodies of one trace. */
  observations(traceId: string): Array<LangfuseEvent['body'] & { type: string }>;
}

export async function startLangfuseStandin(keys: {
  publicKey: string;
  secretKey: string;
}): Promise<LangfuseStandin> {
  const expected = `Basic ${Buffer.from(`${keys.publicKey}:${keys.secretKey}`).toString('base64')}`;
  const project = { id: 'cm-lectern-project', name: 'Lectern tests' };
  const accepted: LangfuseEvent[][] = [];
  const base = await startStandin([
    ({ rec, res }) => {
      if (!rec.path.startsWith('/api/public/')) return false;
      if (rec.headers.authorization !== expected) {
        sendJson(res, 401, {
          message: "Invalid credentials. Confirm that you've configured the correct host.",
          error: 'Unauthorized',
        });
        return true;
      }
      if (rec.method === 'GET' && rec.path === '/api/public/projects') {
        sendJson(res, 200, { data: [{ ...project, metadata: {} }] });
        return true;
      }
      if (rec.method === 'POST' && rec.path === '/api/public/ingestion') {
        const batch = (rec.body as { batch?: LangfuseEvent[] } | undefined)?.batch;
        if (!Array.isArray(batch)) {
          sendJson(res, 400, { message: 'Invalid request data', error: 'batch is required' });
          return true;
        }
        accepted.push(batch);
        const bad = batch.filter((e) => !e.id || !e.type || !e.body || typeof e.body.id !== 'string');
        sendJson(res, 207, {
          successes: batch.filter((e) => !bad.includes(e)).map((e) => ({ id: e.id, status: 201 })),
          errors: bad.map((e) => ({ id: e.id ?? '', status: 400, message: 'Invalid event' })),
        });
        return true;
      }
      return false;
    },
  ]);
  const events = () => accepted.flat();
  return {
    ...base,
    project,
    events,
    batches: () => accepted,
    traces: () =>
      events()
        .filter((e) => e.type === 'trace-create')
        .map((e) => e.body),
    observations: (traceId) =>
      events()
        .filter((e) => e.type !== 'trace-create' && e.body.traceId === traceId)
        .map((e) => ({ ...e.body, type: e.type })),
  };
}

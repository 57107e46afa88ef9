/**
 * Worker thread entry (util/run-in-worker.ts, protocol in util/worker-pool.ts) that computes the full
 * text the PostgreSQL index stores for chunk records (tokens, FTS5 terms, tsvector literals: pg-text.ts),
 * so a bulk write spends the index's thread on the database round trips only.
 * - `stored-texts`: FieldSource[] → StoredText[].
 */
import { parentPort } from 'node:worker_threads';
import type { FieldSource } from './fields.js';
import { storedTextOf, type StoredText } from './pg-text.js';

type Message = { id: number; op: string; payload: unknown };

const port = parentPort;
if (!port) throw new Error('pg-text.worker must run in a worker thread');

function handle(op: string, payload: unknown): StoredText[] | 'pong' {
  if (op === 'ping') return 'pong';
  if (op === 'stored-texts') return (payload as FieldSource[]).map(storedTextOf);
  throw new Error(`pg-text.worker: unknown operation ${op}`);
}

port.on('message', (msg: Message) => {
  try {
    port.postMessage({ id: msg.id, type: 'result', value: handle(msg.op, msg.payload) });
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    port.postMessage({ id: msg.id, type: 'error', name: e.name, message: e.message });
  }
});

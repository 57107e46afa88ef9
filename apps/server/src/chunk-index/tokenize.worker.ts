/**
 * Worker thread entry (util/run-in-worker.ts, protocol in util/worker-pool.ts) that turns chunk
 * records into their full-text token fields, so that a bulk write spends the index's thread on SQLite
 * only: tokenization is about a fifth of the cost of indexing a chunk (bench/index-bulk.ts).
 * - `column-texts`: FieldSource[] → per record the FTS text of each token column (tokenFields, then
 *   columnTexts: the same functions the index uses inline).
 */
import { parentPort } from 'node:worker_threads';
import { tokenFields, type FieldSource } from './fields.js';
import { columnTexts } from './sqlite-schema.js';

type Message = { id: number; op: string; payload: unknown };

const port = parentPort;
if (!port) throw new Error('tokenize.worker must run in a worker thread');

function handle(op: string, payload: unknown): string[][] | 'pong' {
  if (op === 'ping') return 'pong';
  if (op === 'column-texts') return (payload as FieldSource[]).map((r) => columnTexts(tokenFields(r)));
  throw new Error(`tokenize.worker: unknown operation ${op}`);
}

port.on('message', (msg: Message) => {
  try {
    port.postMessage({ id: msg.id, type: 'result', value: handle(msg.op, msg.payload) });
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    port.postMessage({ id: msg.id, type: 'error', name: e.name, message: e.message });
  }
});

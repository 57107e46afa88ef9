/**
 * Worker thread entry (util/run-in-worker.ts, protocol in util/worker-pool.ts) that runs searches of
 * the SQLite chunk index on a read-only connection (sqlite-reader.ts), one per index file:
 * - `search`: { file, request } → SearchResult.
 */
import { parentPort } from 'node:worker_threads';
import type { SearchRequest, SearchResult } from './chunk-index.js';
import { SqliteIndexReader } from './sqlite-reader.js';

type Message = { id: number; op: string; payload: unknown };

const port = parentPort;
if (!port) throw new Error('sqlite-search.worker must run in a worker thread');

const readers = new Map<string, SqliteIndexReader>();

function reader(file: string): SqliteIndexReader {
  let r = readers.get(file);
  if (!r) {
    r = new SqliteIndexReader(file);
    readers.set(file, r);
  }
  return r;
}

function handle(op: string, payload: unknown): SearchResult | 'pong' {
  if (op === 'ping') return 'pong';
  if (op === 'search') {
    const p = payload as { file: string; request: SearchRequest };
    return reader(p.file).search(p.request);
  }
  throw new Error(`sqlite-search.worker: unknown operation ${op}`);
}

port.on('message', (msg: Message) => {
  try {
    port.postMessage({ id: msg.id, type: 'result', value: handle(msg.op, msg.payload) });
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    port.postMessage({ id: msg.id, type: 'error', name: e.name, message: e.message });
  }
});

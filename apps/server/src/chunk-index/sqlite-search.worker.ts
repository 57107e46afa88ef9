/**
 * Worker thread entry (util/run-in-worker.ts, protocol in util/worker-pool.ts) that runs searches of
 * the SQLite chunk index on a read-only connection (sqlite-reader.ts), one per index file:
 * - `search`: { file, request, keywordPostings } → SearchResult (with each hit's `terms` when the request has a `termQuery`);
 * - `plan`: { file, question, options, writes } → QueryPlan | null (query.ts: tokenizing and term
 *   statistics, so that the API's event loop does neither).
 */
import { parentPort } from 'node:worker_threads';
import type { SearchRequest, SearchResult } from './chunk-index.js';
import type { PlanOptions, QueryPlan } from './query.js';
import { SqliteIndexReader } from './sqlite-reader.js';
import { hitTerms, queryItems } from './term-similarity.js';

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

function handle(op: string, payload: unknown): SearchResult | Promise<QueryPlan | null> | 'pong' {
  if (op === 'ping') return 'pong';
  if (op === 'plan') {
    const p = payload as { file: string; question: string; options: PlanOptions; writes: number };
    return reader(p.file).plan(p.question, p.options, p.writes);
  }
  if (op === 'search') {
    const p = payload as { file: string; request: SearchRequest; keywordPostings?: boolean };
    const result = reader(p.file).search(p.request, p.keywordPostings === true);
    if (p.request.termQuery) {
      const items = queryItems(p.request.termQuery);
      for (const hit of result.hits) hit.terms = hitTerms(items, hit.chunk);
    }
    return result;
  }
  throw new Error(`sqlite-search.worker: unknown operation ${op}`);
}

function fail(id: number, err: unknown): void {
  const e = err instanceof Error ? err : new Error(String(err));
  port!.postMessage({ id, type: 'error', name: e.name, message: e.message });
}

port.on('message', (msg: Message) => {
  try {
    const out = handle(msg.op, msg.payload);
    if (out instanceof Promise)
      out.then(
        (value) => port.postMessage({ id: msg.id, type: 'result', value }),
        (err: unknown) => fail(msg.id, err),
      );
    else port.postMessage({ id: msg.id, type: 'result', value: out });
  } catch (err) {
    fail(msg.id, err);
  }
});

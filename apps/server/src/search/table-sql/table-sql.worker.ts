/**
 * Worker thread entry (util/run-in-worker.ts, protocol in util/worker-pool.ts) that runs one
 * model-written SELECT over a KB's table rows (API.md §19.7) in a throwaway in-memory SQLite database:
 * the database holds only the rows it is given, is set to `query_only` before the statement is
 * prepared, and the statement must be one read-only SELECT by SQLite's own verdict. The pool's job
 * time limit ends a runaway statement (better-sqlite3 cannot interrupt one) by ending this thread.
 * - `query`: TableQueryJob → TableQueryOutcome.
 */
import { parentPort } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { ROW_ID_COLUMN, refusalOf, sqlTypeOf, withRowId } from './statement.js';
import type { TableQueryJob, TableQueryOutcome } from './types.js';

type Message = { id: number; op: string; payload: unknown };

const port = parentPort;
if (!port) throw new Error('table-sql.worker must run in a worker thread');

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

function run(job: TableQueryJob): TableQueryOutcome {
  const refusal = refusalOf(job.sql);
  if (refusal) return { ok: false, refused: true, error: refusal };
  const db = new Database(':memory:');
  try {
    const columns = ['chunk_id', 'doc_id', 'docnm_kwd', ...job.fields];
    const defs = columns.map((c, i) => `${quote(c)} ${i < 3 ? 'TEXT' : sqlTypeOf(c)}`);
    db.exec(`CREATE TABLE ${quote(job.table)} (${defs.join(', ')})`);
    const insert = db.prepare(
      `INSERT INTO ${quote(job.table)} VALUES (${columns.map(() => '?').join(', ')})`,
    );
    db.transaction(() => {
      for (const row of job.rows) insert.run(...row);
    })();
    db.pragma('query_only = ON');

    const prepare = (sql: string) => {
      const stmt = db.prepare(sql);
      if (!stmt.readonly || !stmt.reader) throw new RefusedError('Only a read-only SELECT is allowed.');
      return stmt;
    };
    let stmt: Database.Statement;
    const cited = withRowId(job.sql);
    try {
      stmt = prepare(cited ?? job.sql);
    } catch (err) {
      if (!cited || err instanceof RefusedError) throw err;
      stmt = prepare(job.sql); // the row id did not fit this statement's shape: run it as written
    }
    const names = stmt.columns().map((c) => c.name);
    const rows: unknown[][] = [];
    let truncated = false;
    for (const row of stmt.raw(true).iterate() as IterableIterator<unknown[]>) {
      if (rows.length >= job.maxRows) {
        truncated = true;
        break;
      }
      rows.push(row.map((v) => (typeof v === 'bigint' ? Number(v) : v)));
    }
    const rowIdAt = names.indexOf(ROW_ID_COLUMN);
    return { ok: true, columns: names, rows, truncated, rowIdColumn: rowIdAt };
  } catch (err) {
    if (err instanceof RefusedError) return { ok: false, refused: true, error: err.message };
    return { ok: false, refused: false, error: err instanceof Error ? err.message : String(err) };
  } finally {
    db.close();
  }
}

class RefusedError extends Error {}

port.on('message', (msg: Message) => {
  try {
    if (msg.op === 'ping') return port.postMessage({ id: msg.id, type: 'result', value: 'pong' });
    if (msg.op !== 'query') throw new Error(`table-sql.worker: unknown operation ${msg.op}`);
    port.postMessage({ id: msg.id, type: 'result', value: run(msg.payload as TableQueryJob) });
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    port.postMessage({ id: msg.id, type: 'error', name: e.name, message: e.message });
  }
});

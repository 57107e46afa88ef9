/** The table-SQL worker thread: a throwaway database of the given rows, read-only, row and time caps. */
import { afterAll, describe, expect, it } from 'vitest';
import { TableSqlRunner } from './table-query.js';
import type { TableQueryJob } from './types.js';

const runner = new TableSqlRunner(1_500);
afterAll(() => runner.close());

const fields = ['name_tks', 'price_flt', 'stock_long', 'released_dt'];
const rows: TableQueryJob['rows'] = [
  ['c1', 'd1', 'items.csv', 'Lamp', 12.5, 3, '2024-01-05 00:00:00'],
  ['c2', 'd1', 'items.csv', 'Desk', 99, 10, '2023-11-30 00:00:00'],
  ['c3', 'd2', 'more.csv', 'Chair', 45, null, null],
];
const job = (sql: string, maxRows = 100): TableQueryJob => ({ table: 'kb_rows', fields, rows, sql, maxRows });

describe('TableSqlRunner', () => {
  it('runs a SELECT with typed columns and names each row’s chunk', async () => {
    const out = await runner.query(
      job('SELECT name_tks, price_flt FROM kb_rows WHERE price_flt > 20 ORDER BY price_flt'),
    );
    expect(out).toEqual({
      ok: true,
      columns: ['__chunk_id', 'name_tks', 'price_flt'],
      rows: [
        ['c3', 'Chair', 45],
        ['c2', 'Desk', 99],
      ],
      truncated: false,
      rowIdColumn: 0,
    });
  });

  it('runs aggregates as written and caps the rows', async () => {
    const sum = await runner.query(job('SELECT sum(stock_long) AS s FROM kb_rows'));
    expect(sum).toMatchObject({ ok: true, columns: ['s'], rows: [[13]], rowIdColumn: -1 });
    const capped = await runner.query(job('SELECT name_tks FROM kb_rows', 2));
    expect(capped).toMatchObject({ ok: true, truncated: true });
    if (capped.ok) expect(capped.rows).toHaveLength(2);
  });

  it('reports SQLite errors for the retry and refuses anything but one read-only SELECT', async () => {
    expect(await runner.query(job('SELECT nme_tks FROM kb_rows'))).toEqual({
      ok: false,
      refused: false,
      error: 'no such column: nme_tks',
    });
    for (const sql of [
      'DROP TABLE kb_rows',
      "ATTACH ':memory:' AS x",
      'PRAGMA query_only = OFF',
      'SELECT 1; SELECT 2',
    ]) {
      expect(await runner.query(job(sql)), sql).toMatchObject({ ok: false, refused: true });
    }
  });

  it('stops a runaway statement at the time limit and keeps working after it', async () => {
    const t0 = Date.now();
    const out = await runner.query(
      job('WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n'),
    );
    expect(out).toEqual({
      ok: false,
      refused: false,
      error: 'The query took longer than 1.5s and was stopped.',
    });
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(await runner.query(job('SELECT count(*) FROM kb_rows'))).toMatchObject({ ok: true, rows: [[3]] });
  });
});

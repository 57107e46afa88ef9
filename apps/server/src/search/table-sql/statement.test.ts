import { describe, expect, it } from 'vitest';
import { aggregates, cleanModelSql, refusalOf, sqlTypeOf, withRowId } from './statement.js';

describe('model SQL cleaning', () => {
  it('keeps the statement only: no reasoning, fence, lead-in sentence or trailing semicolon', () => {
    expect(cleanModelSql('<think>prices…</think>```sql\nSELECT name_tks FROM kb_rows;\n```')).toBe(
      'SELECT name_tks FROM kb_rows',
    );
    expect(cleanModelSql('Here is the query: select * from kb_rows ；')).toBe('select * from kb_rows');
    expect(cleanModelSql('PRAGMA table_info(kb_rows); SELECT 1')).toBe(
      'PRAGMA table_info(kb_rows); SELECT 1',
    );
  });
});

describe('statement checks', () => {
  it('lets single SELECTs through, WITH included, and words inside strings', () => {
    expect(refusalOf("SELECT name_tks FROM kb_rows WHERE name_tks = 'drop; update'")).toBeNull();
    expect(refusalOf('WITH c AS (SELECT * FROM kb_rows) SELECT count(*) FROM c')).toBeNull();
    expect(refusalOf('select "delete" from kb_rows')).toBeNull();
    expect(refusalOf("SELECT replace(name_tks, 'a', 'b'), release_dt FROM kb_rows")).toBeNull();
    expect(refusalOf('WITH x AS (SELECT 1) REPLACE INTO kb_rows VALUES (1)')).not.toBeNull();
  });

  it('refuses writes, schema and engine statements, and several statements', () => {
    const refused = [
      'DROP TABLE kb_rows',
      "ATTACH DATABASE '/tmp/x.db' AS x",
      'PRAGMA table_info(kb_rows)',
      'SELECT 1; DELETE FROM kb_rows',
      'SELECT * FROM kb_rows; ',
      'WITH x AS (SELECT 1) DELETE FROM kb_rows',
      "SELECT load_extension('evil')",
      'SELECT * FROM sqlite_master',
      '',
      'I cannot answer that.',
    ];
    for (const sql of refused) expect(refusalOf(sql), sql).not.toBeNull();
    expect(refusalOf('SELECT 1; DELETE FROM kb_rows')).toBe('Only one statement is allowed.');
    expect(refusalOf('PRAGMA table_info(kb_rows)')).toBe('Only a SELECT statement is allowed.');
    expect(refusalOf('WITH x AS (SELECT 1) DELETE FROM kb_rows')).toBe('"DELETE" is not allowed in a query.');
  });

  it('adds the row id to plain row listings only', () => {
    expect(withRowId('SELECT name_tks FROM kb_rows')).toBe(
      'SELECT chunk_id AS __chunk_id, name_tks FROM kb_rows',
    );
    expect(withRowId('select * from kb_rows')).toBe('SELECT chunk_id AS __chunk_id, * from kb_rows');
    expect(withRowId('SELECT sum(price_flt) FROM kb_rows')).toBeNull();
    expect(withRowId('SELECT DISTINCT name_tks FROM kb_rows')).toBeNull();
    expect(withRowId('SELECT a FROM kb_rows GROUP BY a')).toBeNull();
    expect(aggregates("SELECT name_tks FROM kb_rows WHERE name_tks = 'count('")).toBe(false);
  });

  it('types columns by their field-map suffix', () => {
    expect(['a_long', 'a_int', 'a_flt', 'a_dt', 'a_kwd', 'a_tks'].map(sqlTypeOf)).toEqual([
      'INTEGER',
      'INTEGER',
      'REAL',
      'TEXT',
      'TEXT',
      'TEXT',
    ]);
  });
});

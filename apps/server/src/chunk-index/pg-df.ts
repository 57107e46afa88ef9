/**
 * Document frequencies of single terms in the PostgreSQL index, kept in `lectern_chunk_df` as
 * append-only deltas (term, ±rows) written in the transaction that inserts or deletes the rows, so a
 * term's count is one index lookup instead of a GIN bitmap plus a visit of every matching heap page
 * (PostgreSQL 15 fetches the heap page of every bitmap hit even when the visibility map marks it
 * all-visible: counting a word in half of 100k chunks read 39k pages, 0.9–1.2 s).
 * - A row counts once for a term in either tsvector (`tsv` or `tsv_sm`), as `tsv @@ t OR tsv_sm @@ t`
 *   counts it.
 * - Deltas are only inserted, never updated: concurrent writers do not wait on each other's rows.
 * - `compactDf` folds the deltas into one row per term (one transaction; deltas another writer commits
 *   meanwhile are outside its snapshot and stay as they are).
 * Phrases (several terms in a row) still count over the GIN index with their positions (pg-stats.ts).
 */
import type pg from 'pg';

/** What runs a statement (pg-write.ts `Exec`; declared here so the two modules do not import each other). */
interface Exec {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

export const DF_TABLE_SQL = `
CREATE TABLE IF NOT EXISTS lectern_chunk_df (term text NOT NULL, n bigint NOT NULL, n_sm_only bigint NOT NULL);
CREATE INDEX IF NOT EXISTS lectern_chunk_df_term ON lectern_chunk_df (term) INCLUDE (n, n_sm_only);
`;

/**
 * The distinct lexemes of row alias `r` (a LATERAL subquery yielding `lexeme`, `c`): those of `tsv` with
 * c = true, those only in `tsv_sm` with c = false (the second part is skipped for rows without one).
 */
const ROW_LEXEMES =
  '(SELECT lexeme, true AS c FROM unnest(r.tsv) UNION ALL SELECT x.lexeme, false FROM ' +
  '(SELECT lexeme FROM unnest(r.tsv_sm) WHERE r.tsv_sm IS NOT NULL EXCEPT SELECT lexeme FROM unnest(r.tsv) WHERE r.tsv_sm IS NOT NULL) x) u';

/**
 * SQL adding `sign` × (rows holding each term) of the rows of relation `rows` (alias r; tsv, tsv_sm):
 * `n` counts rows with the term in `tsv`, `n_sm_only` rows with it in `tsv_sm` alone.
 */
export function dfDeltaSql(rows: string, sign: 1 | -1): string {
  const s = sign === 1 ? '' : '-';
  return (
    `INSERT INTO lectern_chunk_df (term, n, n_sm_only) SELECT u.lexeme, ${s}COUNT(*) FILTER (WHERE u.c), ${s}COUNT(*) FILTER (WHERE NOT u.c) ` +
    `FROM ${rows} r CROSS JOIN LATERAL ${ROW_LEXEMES} GROUP BY u.lexeme`
  );
}

/** Adds the deltas of the rows with these ids (before deleting them: -1, after inserting them: +1). */
export async function addDfOfRids(exec: Exec, rids: number[], sign: 1 | -1): Promise<void> {
  if (rids.length === 0) return;
  await exec.query(dfDeltaSql('(SELECT tsv, tsv_sm FROM lectern_chunk WHERE rid = ANY($1::int8[]))', sign), [
    rids,
  ]);
}

/**
 * Rows of the index holding each term: in `tsv`, or with `fine` in either tsvector (pg-stats.ts
 * `countPhrase` counts `tsv @@ t`, or `tsv @@ t OR tsv_sm @@ t` for a term that may be fine-grained).
 */
export async function termCounts(
  pool: pg.Pool,
  terms: Array<{ term: string; fine: boolean }>,
): Promise<number[]> {
  if (terms.length === 0) return [];
  const res = await pool.query<{ term: string; n: string; sm: string }>(
    'SELECT term, SUM(n)::text AS n, SUM(n_sm_only)::text AS sm FROM lectern_chunk_df WHERE term = ANY($1::text[]) GROUP BY term',
    [[...new Set(terms.map((t) => t.term))]],
  );
  const byTerm = new Map(res.rows.map((r) => [r.term, { n: Number(r.n), sm: Number(r.sm) }]));
  return terms.map((t) => {
    const c = byTerm.get(t.term);
    return c ? c.n + (t.fine ? c.sm : 0) : 0;
  });
}

/** Folds the deltas into one row per term, dropping terms no row holds any more. */
export async function compactDf(pool: pg.Pool): Promise<void> {
  await pool.query(
    'WITH d AS (DELETE FROM lectern_chunk_df RETURNING term, n, n_sm_only) ' +
      'INSERT INTO lectern_chunk_df (term, n, n_sm_only) SELECT term, SUM(n), SUM(n_sm_only) FROM d ' +
      'GROUP BY term HAVING SUM(n) <> 0 OR SUM(n_sm_only) <> 0',
  );
}

/** Counts every row of an index made before the table existed (once, under the schema lock). */
export async function backfillDf(exec: Exec): Promise<void> {
  await exec.query(dfDeltaSql('lectern_chunk', 1));
}

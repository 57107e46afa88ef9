/**
 * Model-written SQL for structured queries over table KBs (API.md §19.7): cleaning what the model
 * wrote into one statement, and the checks that let only a single read-only SELECT through. The
 * statement then runs in a throwaway in-memory database holding nothing but the KB rows' typed
 * fields (table-sql.worker.ts), which re-checks it with SQLite's own `readonly` verdict.
 */

/** SQL column type of a field-map key, from its type suffix (chunkers/table.ts TYPE_SUFFIX). */
export function sqlTypeOf(key: string): 'INTEGER' | 'REAL' | 'TEXT' {
  if (/_(long|int)$/.test(key)) return 'INTEGER';
  if (/_flt$/.test(key)) return 'REAL';
  return 'TEXT';
}

/** The statement inside a model's answer: no reasoning, no code fence, no trailing `;`. */
export function cleanModelSql(answer: string): string {
  let sql = answer.replace(/^[\s\S]*<\/think>/, '');
  const fenced = /```(?:sql|sqlite)?\s*([\s\S]*?)```/i.exec(sql);
  if (fenced) sql = fenced[1];
  sql = sql.trim();
  // Models often lead with a sentence: the statement starts at the first SELECT/WITH.
  const start = /\b(select|with)\b/i.exec(sql);
  if (start && start.index > 0 && !/^\s*(pragma|attach|detach)\b/i.test(sql)) {
    sql = sql.slice(start.index);
  }
  return sql.replace(/[\s;；]+$/, '').trim();
}

/** The SQL with string literals, quoted identifiers and comments blanked (keyword checks read the rest). */
function codeOnly(sql: string): string {
  return sql
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/"(?:[^"]|"")*"/g, '""')
    .replace(/`[^`]*`/g, '``')
    .replace(/\[[^\]]*\]/g, '[]')
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ');
}

/**
 * Words that never belong in a query over one table (writes, schema changes, file and engine access);
 * `replace(…)` the string function is fine.
 */
const FORBIDDEN =
  /\b(pragma|attach|detach|vacuum|insert|update|delete|drop|create|alter|replace(?!\s*\()|reindex|analyze|begin|commit|rollback|savepoint|release|load_extension|readfile|writefile|edit|fts3_tokenizer|sqlite_master|sqlite_schema|sqlite_temp_master)\b/i;

/** Why the statement is refused, or null when it is a single SELECT (optionally led by WITH). */
export function refusalOf(sql: string): string | null {
  if (!sql) return 'The answer held no SQL statement.';
  const code = codeOnly(sql);
  if (!/^\s*(select|with)\b/i.test(code)) return 'Only a SELECT statement is allowed.';
  if (code.includes(';')) return 'Only one statement is allowed.';
  const word = FORBIDDEN.exec(code);
  if (word) return `"${word[1].toUpperCase()}" is not allowed in a query.`;
  return null;
}

/** True when the SELECT aggregates (its rows are not KB rows, so they cite no row chunk). */
export function aggregates(sql: string): boolean {
  return /\b(sum|avg|max|min|count|total|group_concat)\s*\(|\bgroup\s+by\b|\bdistinct\b/i.test(codeOnly(sql));
}

/** Name of the hidden column that carries each result row's chunk id (for its citation). */
export const ROW_ID_COLUMN = '__chunk_id';

/**
 * The statement with the row's chunk id selected first, so a plain row listing can cite the row chunk
 * (RAGFlow prepends doc_id/docnm_kwd the same way); null when the statement aggregates or is not a
 * plain `SELECT …` (the caller then runs it as written).
 */
export function withRowId(sql: string): string | null {
  if (aggregates(sql)) return null;
  const m = /^\s*select\s+(?!all\b)/i.exec(sql);
  if (!m) return null;
  return `SELECT chunk_id AS ${ROW_ID_COLUMN}, ${sql.slice(m[0].length)}`;
}

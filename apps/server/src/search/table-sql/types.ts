/** Shapes shared by the structured-query runner (table-query.ts) and its worker thread. */

export interface TableQueryJob {
  /** Table name the model was told. */
  table: string;
  /** Field-map keys, in column order after chunk_id, doc_id, docnm_kwd. */
  fields: string[];
  /** One array per KB row: chunk_id, doc_id, docnm_kwd, then the fields' values (null when absent). */
  rows: Array<Array<string | number | null>>;
  sql: string;
  maxRows: number;
}

export type TableQueryOutcome =
  | {
      ok: true;
      columns: string[];
      rows: unknown[][];
      /** More rows matched than `maxRows`. */
      truncated: boolean;
      /** Index of the hidden chunk-id column, -1 when the statement ran as written. */
      rowIdColumn: number;
    }
  /** `refused`: the statement is not a single read-only SELECT; else SQLite's error (or the time limit). */
  | { ok: false; refused: boolean; error: string };

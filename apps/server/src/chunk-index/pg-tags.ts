/**
 * Tag operations of the PostgreSQL index (tags live in `tag_kwd`, JSON text as the SQLite index keeps
 * them, not in the full text): counts over KBs, most used first then by tag in byte order (SQLite's
 * BINARY collation), and edits that rewrite the tag lists of the KB's chunks carrying given tags.
 */
import type pg from 'pg';
import { inTransaction } from './pg-write.js';

const TAGS =
  "jsonb_array_elements_text(CASE WHEN jsonb_typeof(tag_kwd::jsonb) = 'array' THEN tag_kwd::jsonb ELSE '[]'::jsonb END)";

export class PgTags {
  constructor(private readonly pool: pg.Pool) {}

  async counts(kbIds: string[]): Promise<Array<[string, number]>> {
    if (kbIds.length === 0) return [];
    const res = await this.pool.query<{ tag: string; n: number }>(
      `SELECT j.tag, COUNT(*) AS n FROM lectern_chunk, ${TAGS} AS j(tag) WHERE kb_id = ANY($1::text[]) AND tag_kwd <> '[]' ` +
        'GROUP BY j.tag ORDER BY n DESC, j.tag COLLATE "C"',
      [kbIds],
    );
    return res.rows.map((r) => [String(r.tag), Number(r.n)]);
  }

  /** Rewrites tag_kwd of the KB's chunks that carry one of `tags`; returns how many. */
  async edit(kbId: string, tags: string[], edit: (current: string[]) => string[]): Promise<number> {
    if (tags.length === 0) return 0;
    return inTransaction(this.pool, async (c) => {
      const res = await c.query<{ rid: number; tag_kwd: string }>(
        `SELECT rid, tag_kwd FROM lectern_chunk WHERE kb_id = $1 AND EXISTS (SELECT 1 FROM ${TAGS} AS j(tag) WHERE j.tag = ANY($2::text[])) FOR UPDATE`,
        [kbId, tags],
      );
      if (res.rows.length === 0) return 0;
      await c.query(
        'UPDATE lectern_chunk c SET tag_kwd = u.tags FROM unnest($1::int8[], $2::text[]) AS u(rid, tags) WHERE c.rid = u.rid',
        [
          res.rows.map((r) => r.rid),
          res.rows.map((r) => JSON.stringify(edit(JSON.parse(r.tag_kwd) as string[]))),
        ],
      );
      return res.rows.length;
    });
  }
}

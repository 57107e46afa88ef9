import type Database from 'better-sqlite3';

/** Tag operations of the SQLite index (tags live in `chunk.tag_kwd`, not in the FTS row). */

/** `[[tag, count]]` over the KBs' chunks, most used first. */
export function tagCounts(db: Database.Database, kbIds: string[]): Array<[string, number]> {
  if (kbIds.length === 0) return [];
  const rows = db
    .prepare(
      "SELECT j.value AS tag, COUNT(*) AS n FROM chunk c, json_each(c.tag_kwd) j WHERE c.kb_id IN (SELECT value FROM json_each(?)) AND c.tag_kwd != '[]' GROUP BY j.value ORDER BY n DESC, tag",
    )
    .all(JSON.stringify(kbIds)) as Array<{ tag: string; n: number }>;
  return rows.map((r) => [String(r.tag), r.n]);
}

/** Rewrites tag_kwd of the KB's chunks that carry one of `tags` (call inside a transaction). */
export function editTags(
  db: Database.Database,
  kbId: string,
  tags: string[],
  edit: (current: string[]) => string[],
): number {
  if (tags.length === 0) return 0;
  const rows = db
    .prepare(
      'SELECT rid, tag_kwd FROM chunk WHERE kb_id = ? AND EXISTS (SELECT 1 FROM json_each(chunk.tag_kwd) j WHERE j.value IN (SELECT value FROM json_each(?)))',
    )
    .all(kbId, JSON.stringify(tags)) as Array<{ rid: number; tag_kwd: string }>;
  const upd = db.prepare('UPDATE chunk SET tag_kwd = ? WHERE rid = ?');
  for (const r of rows) upd.run(JSON.stringify(edit(JSON.parse(r.tag_kwd) as string[])), r.rid);
  return rows.length;
}

/**
 * Enabling and disabling chunks in the PostgreSQL index. Availability is part of the row id (partition
 * kind, search/sqlite-schema.ts), so a changed row takes the next id of its new partition — in the
 * order the SQLite index visits the rows, so that ties keep ordering alike in both engines:
 * by document (page, top, newest first) or, for a bare id list, by id.
 */
import type pg from 'pg';
import { vecTableName } from './pg-schema.js';
import { allocate, inTransaction, slotOfRid } from './pg-write.js';

/** Sets `available_int` of the rows `where` selects (visited in `order`); returns how many it selected. */
export async function setAvailableWhere(
  pool: pg.Pool,
  where: string,
  order: string,
  params: unknown[],
  available: number,
): Promise<number> {
  const value = available ? 1 : 0;
  return inTransaction(pool, async (c) => {
    const res = await c.query<{
      rid: number;
      available_int: number;
      knowledge_graph_kwd: string | null;
      vec_dim: number;
    }>(
      `SELECT rid, available_int, knowledge_graph_kwd, vec_dim FROM lectern_chunk WHERE ${where} ORDER BY ${order} FOR UPDATE`,
      params,
    );
    const moving = res.rows.filter((r) => Number(r.available_int) !== value);
    const kindOf = (graph: string | null) => (graph ? (value ? 3 : 0) : value ? 2 : 1);
    const needs = new Map<number, number>();
    for (const r of moving) {
      const key = slotOfRid(Number(r.rid)) * 4 + kindOf(r.knowledge_graph_kwd);
      needs.set(key, (needs.get(key) ?? 0) + 1);
    }
    const fresh = await allocate(c, needs);
    const from: number[] = [];
    const to: number[] = [];
    const kinds: number[] = [];
    for (const r of moving) {
      const key = slotOfRid(Number(r.rid)) * 4 + kindOf(r.knowledge_graph_kwd);
      from.push(Number(r.rid));
      to.push(fresh.get(key)!.shift()!);
      kinds.push(key % 4);
    }
    if (from.length > 0) {
      await c.query(
        'UPDATE lectern_chunk c SET rid = u.to_rid, available_int = $4, kind = u.kind ' +
          'FROM unnest($1::int8[], $2::int8[], $3::int2[]) AS u(from_rid, to_rid, kind) WHERE c.rid = u.from_rid',
        [from, to, kinds, value],
      );
      for (const dim of new Set(moving.map((r) => Number(r.vec_dim)).filter((d) => d > 0)))
        await c.query(
          `UPDATE ${vecTableName(dim)} v SET rid = u.to_rid FROM unnest($1::int8[], $2::int8[]) AS u(from_rid, to_rid) WHERE v.rid = u.from_rid`,
          [from, to],
        );
    }
    return res.rows.length;
  });
}

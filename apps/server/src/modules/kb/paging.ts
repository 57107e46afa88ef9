/**
 * Query-string paging and ordering of API.md §1.7: `page`/`page_size` absent or 0 = all rows,
 * `orderby` (default create_time) among the columns a list allows, `desc` true unless "false".
 */
import { sql, type RawBuilder } from 'kysely';
import { parseCount, RetCode } from '@lectern/shared';
import { ApiError } from '../../http/envelope.js';

export interface ListQuery {
  page: number;
  pageSize: number;
  orderby: string;
  desc: boolean;
  keywords: string;
}

function intParam(name: string, raw: unknown): number {
  const count = parseCount(name, raw, 0, 0);
  if (!count.ok) throw new ApiError(RetCode.EXCEPTION_ERROR, count.message);
  return count.value;
}

export function listQueryOf(q: Record<string, unknown>, allowedOrder: readonly string[]): ListQuery {
  const orderby =
    typeof q.orderby === 'string' && allowedOrder.includes(q.orderby) ? q.orderby : 'create_time';
  return {
    page: intParam('page', q.page),
    pageSize: intParam('page_size', q.page_size),
    orderby,
    desc: typeof q.desc === 'string' ? q.desc.toLowerCase() !== 'false' : true,
    keywords: typeof q.keywords === 'string' ? q.keywords.trim() : '',
  };
}

/** Rows of one page (all rows when page or page_size is 0). */
export function pageOf<T>(rows: T[], q: Pick<ListQuery, 'page' | 'pageSize'>): T[] {
  if (q.page <= 0 || q.pageSize <= 0) return rows;
  return rows.slice((q.page - 1) * q.pageSize, q.page * q.pageSize);
}

/** LIKE pattern for a case-insensitive substring match, with the wildcards of the input escaped. */
export function likePattern(keywords: string): string {
  return `%${keywords.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** No stored name is longer (file names: 255 bytes), so longer keywords cannot match one. */
const LONGEST_NAME_BYTES = 1024;

/**
 * `lower(<column>) LIKE '%keywords%'`, or a plain false when the keywords are longer than any name
 * can be: a 60 KB filter answers "nothing" instead of overflowing the database's pattern limit
 * (SQLite refuses LIKE patterns over 50 000 bytes) — issue 11 item 6.
 */
export function nameContains(column: string, keywords: string): RawBuilder<boolean> {
  if (Buffer.byteLength(keywords, 'utf8') > LONGEST_NAME_BYTES) return sql<boolean>`1 = 0`;
  return sql<boolean>`lower(${sql.ref(column)}) like ${likePattern(keywords)} escape '\\'`;
}

/**
 * Query-string paging and ordering of API.md §1.7: `page`/`page_size` absent or 0 = all rows,
 * `orderby` (default create_time) among the columns a list allows, `desc` true unless "false".
 */
import { RetCode } from '@lectern/shared';
import { ApiError } from '../../http/envelope.js';

export interface ListQuery {
  page: number;
  pageSize: number;
  orderby: string;
  desc: boolean;
  keywords: string;
}

function intParam(name: string, raw: unknown): number {
  if (raw === undefined || raw === null || raw === '') return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0)
    throw new ApiError(RetCode.EXCEPTION_ERROR, `\`${name}\` must be an integer.`);
  return n;
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

/**
 * Query-string paging, ordering and keywords of the list routes (API.md §1.7). The route parses them
 * itself (`page`/`page_size` absent or 0 = all rows, `desc` true unless "false", unknown `orderby` =
 * `create_time`) with its own messages, so validate() only passes them through.
 */
import { routeChecked } from './route.js';

export const listPaging = {
  keywords: routeChecked<string>().optional(),
  page: routeChecked<number | string>().optional(),
  page_size: routeChecked<number | string>().optional(),
  orderby: routeChecked<string>().optional(),
  desc: routeChecked<boolean | 'true' | 'false'>().optional(),
};

/**
 * The largest count a paging/ranking field (`page`, `page_size`, `size`, `top_k`, `top_n`…) takes.
 * Beyond it a value is refused rather than turned into an offset no database can hold
 * (`page: 1e308` is an "integer" to JavaScript): 10^7 × 10^7 still fits a safe integer.
 */
export const MAX_COUNT = 10_000_000;

export type CountResult = { ok: true; value: number } | { ok: false; message: string };

/**
 * Reads one integer count field the way every route does (issue 11 item 6): a number or a numeric
 * string; absent (undefined, null, "") → `fallback`; otherwise an integer in `[min, MAX_COUNT]`, else
 * a clean message naming the field ("`page` must be an integer.", "`top_k` must be greater than 0.").
 */
export function parseCount(name: string, value: unknown, fallback: number, min = 1): CountResult {
  if (value === undefined || value === null || value === '') return { ok: true, value: fallback };
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : NaN;
  if (!Number.isInteger(n)) return { ok: false, message: `\`${name}\` must be an integer.` };
  if (n < min)
    return {
      ok: false,
      message: min === 1 ? `\`${name}\` must be greater than 0.` : `\`${name}\` must be at least ${min}.`,
    };
  if (n > MAX_COUNT) return { ok: false, message: `\`${name}\` must be at most ${MAX_COUNT}.` };
  return { ok: true, value: n };
}

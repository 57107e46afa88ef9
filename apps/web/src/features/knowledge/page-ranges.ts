/**
 * Page ranges of a parsing setting (SPEC §5, API.md §19.6): each range needs a start and an end
 * page; the end must be greater than the start and greater than the previous range's end.
 */

export interface PageRange {
  from?: number | null;
  to?: number | null;
}

export type PageRangeProblem =
  'fromRequired' | 'toRequired' | 'fromTooSmall' | 'toNotAfterFrom' | 'toNotAfterPrevious';

const present = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/** The start page's problem in range `index`, if any. */
export function fromProblem(
  ranges: readonly (PageRange | undefined)[],
  index: number,
): PageRangeProblem | null {
  const from = ranges[index]?.from;
  if (!present(from)) return 'fromRequired';
  if (from < 1) return 'fromTooSmall';
  return null;
}

/** The end page's problem in range `index`, if any. */
export function toProblem(
  ranges: readonly (PageRange | undefined)[],
  index: number,
): PageRangeProblem | null {
  const range = ranges[index];
  if (!present(range?.to)) return 'toRequired';
  if (present(range.from) && range.to <= range.from) return 'toNotAfterFrom';
  const previous = ranges[index - 1]?.to;
  if (index > 0 && present(previous) && range.to <= previous) return 'toNotAfterPrevious';
  return null;
}

/** The first problem of a whole list (start before end, in order), or null when every range is good. */
export function firstPageRangeProblem(ranges: readonly (PageRange | undefined)[]): PageRangeProblem | null {
  for (let i = 0; i < ranges.length; i++) {
    const problem = fromProblem(ranges, i) ?? toProblem(ranges, i);
    if (problem) return problem;
  }
  return null;
}

/** Form rows → the stored `pages` value. */
export function toPages(ranges: readonly (PageRange | undefined)[] | undefined): Array<[number, number]> {
  return (ranges ?? [])
    .filter((r): r is Required<PageRange> & { from: number; to: number } =>
      Boolean(r && present(r.from) && present(r.to)),
    )
    .map((r) => [r.from, r.to]);
}

/** The stored `pages` value → form rows (objects `{from, to}` are read too). */
export function fromPages(pages: unknown): PageRange[] {
  if (!Array.isArray(pages)) return [];
  return pages.flatMap((p): PageRange[] => {
    if (Array.isArray(p)) return [{ from: Number(p[0]), to: Number(p[1]) }];
    if (p && typeof p === 'object') {
      const o = p as { from?: unknown; to?: unknown };
      return [{ from: Number(o.from), to: Number(o.to) }];
    }
    return [];
  });
}

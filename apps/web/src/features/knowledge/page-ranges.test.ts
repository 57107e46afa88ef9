import { describe, expect, it } from 'vitest';
import { firstPageRangeProblem, fromPages, fromProblem, toPages, toProblem } from './page-ranges';

describe('page ranges (SPEC §5)', () => {
  it('requires both a start and an end page, with their own messages', () => {
    expect(fromProblem([{ to: 5 }], 0)).toBe('fromRequired');
    expect(toProblem([{ from: 1 }], 0)).toBe('toRequired');
    expect(fromProblem([{ from: null, to: 3 }], 0)).toBe('fromRequired');
    expect(toProblem([{ from: 1, to: null }], 0)).toBe('toRequired');
    expect(fromProblem([undefined], 0)).toBe('fromRequired');
  });

  it('wants the end greater than the start', () => {
    expect(toProblem([{ from: 3, to: 3 }], 0)).toBe('toNotAfterFrom');
    expect(toProblem([{ from: 5, to: 2 }], 0)).toBe('toNotAfterFrom');
    expect(toProblem([{ from: 1, to: 2 }], 0)).toBeNull();
  });

  it('wants each end greater than the previous range end', () => {
    const ranges = [
      { from: 1, to: 10 },
      { from: 4, to: 8 },
    ];
    expect(toProblem(ranges, 1)).toBe('toNotAfterPrevious');
    expect(
      toProblem(
        [
          { from: 1, to: 10 },
          { from: 4, to: 10 },
        ],
        1,
      ),
    ).toBe('toNotAfterPrevious');
    expect(
      toProblem(
        [
          { from: 1, to: 10 },
          { from: 12, to: 20 },
        ],
        1,
      ),
    ).toBeNull();
  });

  it('counts pages from 1', () => {
    expect(fromProblem([{ from: 0, to: 3 }], 0)).toBe('fromTooSmall');
  });

  it('reports the first problem of a list in order', () => {
    expect(firstPageRangeProblem([])).toBeNull();
    expect(
      firstPageRangeProblem([
        { from: 1, to: 5 },
        { from: 6, to: 9 },
      ]),
    ).toBeNull();
    expect(firstPageRangeProblem([{ from: 1, to: 5 }, { to: 9 }])).toBe('fromRequired');
    expect(
      firstPageRangeProblem([
        { from: 1, to: 5 },
        { from: 2, to: 4 },
      ]),
    ).toBe('toNotAfterPrevious');
  });

  it('converts between form rows and the stored [[from, to]] value', () => {
    expect(
      toPages([
        { from: 1, to: 5 },
        { from: 7, to: 9 },
      ]),
    ).toEqual([
      [1, 5],
      [7, 9],
    ]);
    expect(toPages([{ from: 1 }, undefined])).toEqual([]);
    expect(toPages(undefined)).toEqual([]);
    expect(fromPages([[2, 4]])).toEqual([{ from: 2, to: 4 }]);
    expect(fromPages([{ from: 3, to: 6 }])).toEqual([{ from: 3, to: 6 }]);
    expect(fromPages(null)).toEqual([]);
  });
});

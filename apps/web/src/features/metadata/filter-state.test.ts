import { describe, expect, it } from 'vitest';
import {
  draftOf,
  draftProblem,
  emptyRow,
  filterOf,
  keySuggestions,
  rowProblems,
  valueSuggestions,
  type FilterDraft,
  type MetaSummary,
} from './filter-state';

describe('stored filter ⇄ draft', () => {
  it('{} and unknown shapes are an off filter', () => {
    for (const stored of [{}, null, undefined, 'manual', { method: 'sideways' }]) {
      expect(draftOf(stored)).toEqual({ method: 'disabled', logic: 'and', rows: [], keys: [] });
    }
    expect(filterOf(draftOf({}))).toEqual({});
  });

  it('a manual filter round-trips; values become text, unknown operators "is"', () => {
    const stored = {
      method: 'manual',
      logic: 'or',
      manual: [
        { key: 'year', op: '≥', value: 2020 },
        { key: 'author', op: 'like', value: 'Al' },
        { key: 'summary', op: 'empty', value: null },
      ],
    };
    const draft = draftOf(stored);
    expect(draft.rows).toEqual([
      { key: 'year', op: '≥', value: '2020' },
      { key: 'author', op: 'is', value: 'Al' },
      { key: 'summary', op: 'empty', value: '' },
    ]);
    expect(filterOf(draft)).toEqual({
      method: 'manual',
      logic: 'or',
      manual: [
        { key: 'year', op: '≥', value: '2020' },
        { key: 'author', op: 'is', value: 'Al' },
        { key: 'summary', op: 'empty', value: '' },
      ],
    });
  });

  it('saving trims, drops rows without a key and clears the value of valueless operators', () => {
    const draft: FilterDraft = {
      method: 'manual',
      logic: 'and',
      rows: [
        { key: ' author ', op: 'contains', value: ' smith ' },
        { key: '', op: 'is', value: 'x' },
        { key: 'tags', op: 'not empty', value: 'leftover' },
      ],
      keys: [],
    };
    expect(filterOf(draft).manual).toEqual([
      { key: 'author', op: 'contains', value: 'smith' },
      { key: 'tags', op: 'not empty', value: '' },
    ]);
  });

  it('auto and semi_auto keep only what they need', () => {
    expect(filterOf({ ...draftOf({ method: 'auto' }), rows: [emptyRow()] })).toEqual({ method: 'auto' });
    expect(filterOf(draftOf({ method: 'semi_auto', semi_auto: ['year', 3] }))).toEqual({
      method: 'semi_auto',
      semi_auto: ['year'],
    });
  });
});

describe('problems', () => {
  const manual = (rows: FilterDraft['rows']): FilterDraft => ({
    method: 'manual',
    logic: 'and',
    rows,
    keys: [],
  });
  it('each row needs a key, and a value unless the operator takes none', () => {
    expect(
      rowProblems(
        manual([
          { key: '', op: 'is', value: 'x' },
          { key: 'a', op: 'is', value: ' ' },
          { key: 'a', op: 'empty', value: '' },
          { key: 'a', op: '>', value: '3' },
        ]),
      ),
    ).toEqual(['keyRequired', 'valueRequired', null, null]);
  });

  it('a manual filter without rows, or semi_auto without keys, cannot be saved; off and auto can', () => {
    expect(draftProblem(manual([]))).toBe('noCondition');
    expect(draftProblem(manual([{ key: 'a', op: 'is', value: '' }]))).toBe('valueRequired');
    expect(draftProblem(draftOf({ method: 'semi_auto' }))).toBe('noKeys');
    expect(draftProblem(draftOf({}))).toBeNull();
    expect(draftProblem(draftOf({ method: 'auto' }))).toBeNull();
  });
});

describe('suggestions from the knowledge bases’ metadata summaries', () => {
  const summaries: MetaSummary[] = [
    {
      author: [
        ['Alice', 3],
        ['Bob', 1],
      ],
      year: [['2024', 1]],
    },
    { author: [['Bob', 4]], topic: [['solar', 2]] },
  ];
  it('keys by how many documents carry them; values by frequency across KBs', () => {
    expect(keySuggestions(summaries)).toEqual(['author', 'topic', 'year']);
    expect(valueSuggestions(summaries, 'author')).toEqual(['Bob', 'Alice']);
    expect(valueSuggestions(summaries, 'missing')).toEqual([]);
    expect(keySuggestions([])).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  autoFilterPrompt,
  fromMetadataCondition,
  matchCondition,
  metaHolds,
  normalizeMetaDataFilter,
  operatorOf,
  parseAutoConditions,
  summarizeMetadata,
} from './metadata-conditions.js';

describe('matchCondition: every operator', () => {
  it('is / = / is not / ≠ compare text case-insensitively and numbers as numbers', () => {
    expect(matchCondition('Alice', 'is', 'alice')).toBe(true);
    expect(matchCondition('Alice', '=', 'Bob')).toBe(false);
    expect(matchCondition('Alice', 'is not', 'alice')).toBe(false);
    expect(matchCondition('Alice', '≠', 'Bob')).toBe(true);
    expect(matchCondition(2024, '=', '2024.0')).toBe(true);
    expect(matchCondition('2024', '=', 2024)).toBe(true);
    expect(matchCondition('2024', '≠', 2023)).toBe(true);
  });

  it('contains / not contains / start with / end with', () => {
    expect(matchCondition('Annual Report 2024', 'contains', 'report')).toBe(true);
    expect(matchCondition('Annual Report 2024', 'contains', 'memo')).toBe(false);
    expect(matchCondition('Annual Report 2024', 'not contains', 'memo')).toBe(true);
    expect(matchCondition('Annual Report 2024', 'not contains', 'ANNUAL')).toBe(false);
    expect(matchCondition('Annual Report 2024', 'start with', 'annual')).toBe(true);
    expect(matchCondition('Annual Report 2024', 'start with', 'report')).toBe(false);
    expect(matchCondition('Annual Report 2024', 'end with', '2024')).toBe(true);
    expect(matchCondition('Annual Report 2024', 'end with', 'annual')).toBe(false);
  });

  it('> < ≥ ≤ are numeric when both sides are numbers (9 < 10), text order otherwise', () => {
    expect(matchCondition(9, '<', 10)).toBe(true);
    expect(matchCondition('9', '<', '10')).toBe(true);
    expect(matchCondition(10, '>', 9)).toBe(true);
    expect(matchCondition(10, '≥', 10)).toBe(true);
    expect(matchCondition(10, '≤', 9.5)).toBe(false);
    expect(matchCondition(10, '>', 10)).toBe(false);
    expect(matchCondition('2024-05-01', '>', '2024-04-30')).toBe(true);
    expect(matchCondition('2024-05-01', '≤', '2024-04-30')).toBe(false);
  });

  it('empty / not empty: absent, null, "" and [] are empty; 0 is a value', () => {
    for (const v of [undefined, null, '', [], [''], [null]]) {
      expect(matchCondition(v, 'empty', '')).toBe(true);
      expect(matchCondition(v, 'not empty', '')).toBe(false);
    }
    for (const v of [0, 'x', ['a']]) {
      expect(matchCondition(v, 'empty', '')).toBe(false);
      expect(matchCondition(v, 'not empty', '')).toBe(true);
    }
  });

  it('a missing value passes only the negative operators', () => {
    expect(matchCondition(undefined, 'is', 'x')).toBe(false);
    expect(matchCondition(undefined, 'contains', 'x')).toBe(false);
    expect(matchCondition(undefined, '>', 1)).toBe(false);
    expect(matchCondition(undefined, 'is not', 'x')).toBe(true);
    expect(matchCondition(undefined, '≠', 'x')).toBe(true);
    expect(matchCondition(undefined, 'not contains', 'x')).toBe(true);
  });

  it('a list matches when any item does; negative operators when no item does', () => {
    expect(matchCondition(['ai', 'search'], 'is', 'search')).toBe(true);
    expect(matchCondition(['ai', 'search'], 'is not', 'search')).toBe(false);
    expect(matchCondition(['ai', 'search'], 'is not', 'graph')).toBe(true);
    expect(matchCondition([1, 5, 9], '>', 8)).toBe(true);
    expect(matchCondition([1, 5], '>', 8)).toBe(false);
    expect(matchCondition(['Alpha', 'Beta'], 'not contains', 'et')).toBe(false);
  });

  it('spellings: ASCII forms and RAGFlow aliases map to the operators; unknown ones are refused', () => {
    expect(operatorOf('>=')).toBe('≥');
    expect(operatorOf('<=')).toBe('≤');
    expect(operatorOf('!=')).toBe('≠');
    expect(operatorOf('not is')).toBe('is not');
    expect(operatorOf(' Start  With ')).toBe('start with');
    expect(operatorOf('like')).toBeNull();
    expect(operatorOf(3)).toBeNull();
  });
});

describe('metaHolds: and / or', () => {
  const meta = { author: 'Alice', year: 2024, tags: ['ai', 'search'] };
  const byAlice = { key: 'author', op: 'is' as const, value: 'alice' };
  const old = { key: 'year', op: '<' as const, value: 2000 };
  it('an unknown operator sent by a person matches no document (the filter never widens)', () => {
    expect(metaHolds(meta, [{ key: 'author', op: 'unknown', value: 'alice' }])).toBe(false);
    expect(metaHolds(meta, [byAlice, { key: 'author', op: 'unknown', value: 'x' }], 'or')).toBe(true);
  });

  it('and needs every condition, or any; no condition holds', () => {
    expect(metaHolds(meta, [byAlice, old], 'and')).toBe(false);
    expect(metaHolds(meta, [byAlice, old], 'or')).toBe(true);
    expect(metaHolds(meta, [old], 'or')).toBe(false);
    expect(metaHolds(meta, [])).toBe(true);
  });
});

describe('filters as they arrive', () => {
  it('meta_data_filter: disabled, absent, unknown and empty manual filters are no filter', () => {
    expect(normalizeMetaDataFilter(undefined)).toBeNull();
    expect(normalizeMetaDataFilter({})).toBeNull();
    expect(
      normalizeMetaDataFilter({ method: 'disabled', manual: [{ key: 'a', op: 'is', value: 1 }] }),
    ).toBeNull();
    expect(normalizeMetaDataFilter({ method: 'sideways' })).toBeNull();
    expect(normalizeMetaDataFilter({ method: 'manual', manual: [] })).toBeNull();
    expect(
      normalizeMetaDataFilter({ method: 'manual', manual: [{ key: '', op: 'is', value: 1 }] }),
    ).toBeNull();
    expect(normalizeMetaDataFilter('manual')).toBeNull();
  });

  it('manual keeps usable conditions with their logic; auto and semi_auto become auto', () => {
    expect(
      normalizeMetaDataFilter({
        method: 'manual',
        logic: 'OR',
        manual: [
          { key: 'author', op: '!=', value: 'bob' },
          { key: 'x', op: 'like', value: 1 },
          { key: 'y' },
          'junk',
        ],
      }),
    ).toEqual({
      method: 'manual',
      logic: 'or',
      conditions: [
        { key: 'author', op: '≠', value: 'bob' },
        { key: 'x', op: 'unknown', value: 1 },
      ],
    });
    expect(normalizeMetaDataFilter({ method: 'auto' })).toEqual({ method: 'auto', keys: null });
    expect(normalizeMetaDataFilter({ method: 'semi_auto', semi_auto: ['year', { key: 'author' }] })).toEqual({
      method: 'auto',
      keys: ['year', 'author'],
    });
  });

  it('metadata_condition: {logic, conditions:[{name, comparison_operator, value}]}', () => {
    expect(
      fromMetadataCondition({
        logic: 'and',
        conditions: [{ name: 'year', comparison_operator: '>=', value: '2020' }],
      }),
    ).toEqual({ method: 'manual', logic: 'and', conditions: [{ key: 'year', op: '≥', value: '2020' }] });
    expect(fromMetadataCondition({ conditions: [] })).toBeNull();
    expect(fromMetadataCondition([])).toBeNull();
  });
});

describe('auto filter: summary, prompt and the model answer', () => {
  const summary = summarizeMetadata([
    { author: 'Alice', year: 2024 },
    { author: ['Alice', 'Bob'], year: 2019 },
    { note: { nested: true } },
  ]);
  it('summarizes value counts per key, most frequent first; nested values are not values', () => {
    expect(summary).toEqual({
      author: [
        ['Alice', 2],
        ['Bob', 1],
      ],
      year: [
        ['2019', 1],
        ['2024', 1],
      ],
      note: [],
    });
  });

  it('the prompt lists the keys with values and the question', () => {
    const { system, user } = autoFilterPrompt('papers by Alice', summary);
    expect(system).toContain('JSON');
    expect(user).toContain('"author": "Alice", "Bob"');
    expect(user).toContain('Question: papers by Alice');
  });

  it('parses a fenced JSON answer, keeps only known keys and operators', () => {
    const answer =
      '<think>hmm</think>```json\n{"logic":"or","conditions":[{"key":"author","op":"is","value":"Alice"},{"key":"color","op":"is","value":"red"},{"key":"year","op":"between","value":1}]}\n```';
    expect(parseAutoConditions(answer, ['author', 'year'])).toEqual({
      logic: 'or',
      conditions: [{ key: 'author', op: 'is', value: 'Alice' }],
    });
  });

  it('no conditions → an empty list; not JSON → null', () => {
    expect(parseAutoConditions('{"conditions": []}', ['author'])).toEqual({ logic: 'and', conditions: [] });
    expect(parseAutoConditions('I cannot help with that.', ['author'])).toBeNull();
    expect(parseAutoConditions('{"conditions": [', ['author'])).toBeNull();
    expect(parseAutoConditions('[1,2]', ['author'])).toBeNull();
  });
});

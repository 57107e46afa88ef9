import { describe, expect, it } from 'vitest';
import { coerceOutput, mapCodeOutputs } from './outputs.js';
import { normalizeLang } from './types.js';

/** AGENTS.md §10.4 output mapping and language aliases. */
describe('CodeExec outputs', () => {
  it('fills declared outputs from a dict by dotted path, skipping _-names', () => {
    const result = { result: 'ab', stats: { count: '3', items: ['x', 'y'] }, ok: 'yes' };
    expect(
      mapCodeOutputs(result, {
        result: { type: 'string' },
        'stats.count': { type: 'number' },
        'stats.items.1': { type: 'string' },
        ok: { type: 'boolean' },
        missing: { type: 'string' },
        _ERROR: { type: 'string' },
      }),
    ).toEqual({ result: 'ab', 'stats.count': 3, 'stats.items.1': 'y', ok: true, missing: null });
  });

  it('gives the whole dict to a single output whose path is missing', () => {
    expect(mapCodeOutputs({ a: 1 }, { result: { type: 'object' } })).toEqual({ result: { a: 1 } });
    expect(mapCodeOutputs({ a: 1 }, { md_table: { type: 'String' } })).toEqual({ md_table: '{"a":1}' });
  });

  it('fills outputs from a list in order, and a scalar into the first output', () => {
    expect(mapCodeOutputs([1, 'two'], { a: { type: 'number' }, b: { type: 'string' }, c: {} })).toEqual({
      a: 1,
      b: 'two',
      c: null,
    });
    expect(mapCodeOutputs('text', { first: { type: 'string' }, second: { type: 'string' } })).toEqual({
      first: 'text',
      second: null,
    });
  });

  it('coerces by declared type', () => {
    expect(coerceOutput('off', 'boolean')).toBe(false);
    expect(coerceOutput('Y', 'boolean')).toBe(true);
    expect(coerceOutput('maybe', 'boolean')).toBe('maybe');
    expect(coerceOutput('12.5', 'number')).toBe(12.5);
    expect(coerceOutput('n/a', 'number')).toBe('n/a');
    expect(coerceOutput('{"a":[1]}', 'object')).toEqual({ a: [1] });
    expect(coerceOutput('[1,"2"]', 'array<number>')).toEqual([1, 2]);
    expect(coerceOutput('solo', 'Array<String>')).toEqual(['solo']);
    expect(coerceOutput(7, 'string')).toBe('7');
  });

  it('knows the language aliases', () => {
    expect(['python', 'python3', 'nodejs', 'javascript', 'JS', 'ruby'].map(normalizeLang)).toEqual([
      'python',
      'python',
      'javascript',
      'javascript',
      'javascript',
      null,
    ]);
  });
});

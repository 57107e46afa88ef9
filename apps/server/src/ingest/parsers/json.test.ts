import { describe, expect, it } from 'vitest';
import { countTokens } from '../tokens.js';
import { parseJson } from './json.js';

describe('parseJson', () => {
  it('renders leaves as key-path lines', async () => {
    const value = {
      user: { name: 'Ann', 'home town': 'Oslo', tags: ['a', 'b'], empty: {}, none: [] },
      items: [
        { id: 1, ok: true },
        { id: 2, note: null },
      ],
    };
    const doc = await parseJson(Buffer.from(JSON.stringify(value)), { ext: 'json', fileName: 'a.json' });
    expect(doc.sections).toEqual([
      {
        kind: 'text',
        text: [
          'user.name: Ann',
          'user["home town"]: Oslo',
          'user.tags: ["a","b"]',
          'user.empty: {}',
          'user.none: []',
          'items[0].id: 1',
          'items[0].ok: true',
          'items[1].id: 2',
          'items[1].note: null',
        ].join('\n'),
        fields: undefined,
      },
    ]);
  });

  it('splits large documents into sections of at most ~1000 tokens without breaking a value', async () => {
    const big = {
      records: Array.from({ length: 400 }, (_, i) => ({
        id: i,
        text: `record number ${i} with some words in it`,
      })),
      huge: 'word '.repeat(3000).trim(),
    };
    const doc = await parseJson(Buffer.from(JSON.stringify(big)), { ext: 'json', fileName: 'a.json' });
    expect(doc.sections.length).toBeGreaterThan(3);
    const lines = doc.sections.flatMap((s) => s.text.split('\n'));
    expect(lines).toHaveLength(801);
    expect(lines[0]).toBe('records[0].id: 0');
    expect(lines[800]).toBe(`huge: ${big.huge}`);
    for (const s of doc.sections.slice(0, -1)) expect(countTokens(s.text)).toBeLessThanOrEqual(1000);
    expect(doc.sections[doc.sections.length - 1].text).toBe(`huge: ${big.huge}`);
  });

  it('reads JSON Lines record by record', async () => {
    const doc = await parseJson(Buffer.from('{"q":"Why?","a":"Because."}\n\n{"q":"How?","a":"So."}\n'), {
      ext: 'jsonl',
      fileName: 'a.jsonl',
    });
    expect(doc.sections).toEqual([
      { kind: 'text', text: 'q: Why?\na: Because.', fields: { record: 1 } },
      { kind: 'text', text: 'q: How?\na: So.', fields: { record: 3 } },
    ]);
  });

  it('refuses invalid JSON with the line and column, a bad JSON Lines record, and empty files', async () => {
    await expect(
      parseJson(Buffer.from('{\n  "a": 1\n  "b": 2\n}'), { ext: 'json', fileName: 'a.json' }),
    ).rejects.toThrow(
      "The JSON file is not valid: Expected ',' or '}' after property value at line 3, column 3.",
    );
    await expect(
      parseJson(Buffer.from('{"a":1}\n{"a":}\n'), { ext: 'ldjson', fileName: 'a.ldjson' }),
    ).rejects.toThrow("Line 2 of the JSON Lines file is not valid JSON: Unexpected token '}'.");
    await expect(parseJson(Buffer.alloc(0), { ext: 'json', fileName: 'a.json' })).rejects.toThrow(
      'The file is empty.',
    );
    await expect(parseJson(Buffer.from('  \n '), { ext: 'json', fileName: 'a.json' })).rejects.toThrow(
      'The file is empty.',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { mergeMetadata, metadataFields, metadataPrompt, parseMetadataAnswer } from './metadata.js';

describe('metadata settings → fields', () => {
  it('reads a JSON schema, a list and a map', () => {
    expect(
      metadataFields({
        type: 'object',
        properties: {
          author: { type: 'string', description: 'Who wrote it' },
          year: { type: 'integer' },
          topics: { type: 'array', items: { type: 'string', enum: ['ai', 'db'] } },
        },
      }),
    ).toEqual([
      { key: 'author', description: 'Who wrote it', type: 'string', options: null },
      { key: 'year', description: '', type: 'number', options: null },
      { key: 'topics', description: '', type: 'list', options: ['ai', 'db'] },
    ]);
    expect(metadataFields([{ key: 'kind', description: 'Document kind', enum: ['memo', 'report'] }])).toEqual(
      [{ key: 'kind', description: 'Document kind', type: 'string', options: ['memo', 'report'] }],
    );
    expect(metadataFields({ author: 'Who wrote it' })).toEqual([
      { key: 'author', description: 'Who wrote it', type: 'string', options: null },
    ]);
  });

  it('reads the list the KB settings form stores (key, description, type, optional enum)', () => {
    expect(
      metadataFields([
        { key: 'author', description: 'Who', type: 'string' },
        { key: 'year', description: 'Year written', type: 'number' },
        { key: 'topics', description: '', type: 'list', enum: ['ai', 'db'] },
      ]),
    ).toEqual([
      { key: 'author', description: 'Who', type: 'string', options: null },
      { key: 'year', description: 'Year written', type: 'number', options: null },
      { key: 'topics', description: '', type: 'list', options: ['ai', 'db'] },
    ]);
  });

  it('nothing usable → no fields (extraction does not run)', () => {
    expect(metadataFields(undefined)).toEqual([]);
    expect(metadataFields({})).toEqual([]);
    expect(metadataFields([{ description: 'no key' }, 'x'])).toEqual([]);
    expect(metadataFields({ type: 'object', properties: {} })).toEqual([]);
  });
});

describe('the model answer', () => {
  const fields = metadataFields({
    type: 'object',
    properties: {
      author: { type: 'string' },
      year: { type: 'number' },
      kind: { type: 'string', enum: ['Memo', 'Report'] },
      topics: { type: 'array' },
    },
  });

  it('the prompt names each field with its kind and allowed values', () => {
    const { user } = metadataPrompt(fields, 'Some text');
    expect(user).toContain('"year" (a number)');
    expect(user).toContain('"kind" (a short text; one of: "Memo", "Report")');
    expect(user).toContain('"topics" (a list of values)');
    expect(user).toContain('Text:\nSome text');
  });

  it('keeps listed keys, coerces numbers, enforces allowed values, makes lists of list fields', () => {
    const answer =
      'Here you go:\n```json\n{"author": " Alice ", "year": "2,024", "kind": "report", "topics": ["ai", "ai", "search"], "extra": "x"}\n```';
    expect(parseMetadataAnswer(answer, fields)).toEqual({
      author: 'Alice',
      year: 2024,
      kind: 'Report',
      topics: ['ai', 'search'],
    });
  });

  it('drops values outside the options, empty strings and non-scalars; not JSON → null', () => {
    expect(parseMetadataAnswer('{"kind": "Letter", "author": "", "year": {"v": 1}}', fields)).toEqual({});
    expect(parseMetadataAnswer('no idea', fields)).toBeNull();
    expect(parseMetadataAnswer('{"author": ', fields)).toBeNull();
  });
});

describe('merging into the document metadata', () => {
  it('new keys are added, equal values kept once, different values become a list', () => {
    expect(
      mergeMetadata(
        { author: 'Alice', manual: 'kept', topics: ['ai'] },
        { author: 'Alice', year: 2024, topics: ['db', 'ai'] },
      ),
    ).toEqual({ author: 'Alice', manual: 'kept', year: 2024, topics: ['ai', 'db'] });
    expect(mergeMetadata({ author: 'Alice' }, { author: 'Bob' })).toEqual({ author: ['Alice', 'Bob'] });
  });
});

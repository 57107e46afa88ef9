import { describe, expect, it } from 'vitest';
import { hasCitation, insertCitations, normalizeCitations, splitSentences } from './citations.js';

const words = (t: string) => t.toLowerCase().match(/[a-z0-9]+/g) ?? [];

describe('normalizeCitations', () => {
  it('rewrites the malformed forms models produce to [ID:n]', () => {
    const { answer, cited } = normalizeCitations(
      'A (ID: 1). B [ID: 2]. C 【ID:0】. D ##3$$. E [ID:1, ID:2]. F [id 0]. G ref 3.',
      4,
    );
    expect(answer).toBe('A [ID:1]. B [ID:2]. C [ID:0]. D [ID:3]. E [ID:1] [ID:2]. F [ID:0]. G [ID:3].');
    expect([...cited].sort()).toEqual([0, 1, 2, 3]);
  });

  it('keeps well-formed citations, reads Arabic-Indic digits, drops out-of-range markers', () => {
    const { answer, cited } = normalizeCitations('X [ID:0] Y [ID:٢] Z [ID:9] W (ID: 7)', 3);
    expect(answer).toBe('X [ID:0] Y [ID:2] Z  W (ID: 7)');
    expect([...cited].sort()).toEqual([0, 2]);
  });

  it('leaves Arabic digits in prose alone', () => {
    expect(normalizeCitations('عدد ٣ [ID:0]', 1).answer).toBe('عدد ٣ [ID:0]');
  });

  it('detects citations in any form', () => {
    expect(hasCitation('no refs here')).toBe(false);
    expect(hasCitation('yes (ID: 3)')).toBe(true);
    expect(hasCitation('yes [ID:3]')).toBe(true);
  });
});

describe('splitSentences', () => {
  it('is lossless and keeps code blocks whole', () => {
    const text = 'First sentence. Second one!\n```js\nconst a = 1. b;\n```\n第一句。第二句？ pi is 3.14 ok';
    const pieces = splitSentences(text);
    expect(pieces.map((p) => p.text).join('')).toBe(text);
    expect(pieces.filter((p) => p.code)).toEqual([{ text: '```js\nconst a = 1. b;\n```', code: true }]);
    expect(pieces.map((p) => p.text)).toContain('First sentence. ');
    expect(pieces.some((p) => p.text.includes('3.14 ok'))).toBe(true);
  });
});

describe('insertCitations (§19.13)', () => {
  const chunks = [
    { tokens: words('The mitochondria is the powerhouse of the cell'), vector: null },
    { tokens: words('Paris is the capital of France'), vector: null },
  ];

  it('cites the matching chunk after each sentence, keyword-only when there are no vectors', () => {
    const { answer, cited } = insertCitations(
      'Paris is the capital of France. The mitochondria is the powerhouse of the cell.',
      chunks,
      { tokenize: words, sentenceVectors: null, vectorWeight: 0.3 },
    );
    expect(answer).toBe(
      'Paris is the capital of France. [ID:1] The mitochondria is the powerhouse of the cell. [ID:0]',
    );
    expect([...cited].sort()).toEqual([0, 1]);
  });

  it('uses the hybrid score with vectors and the decaying threshold', () => {
    // Term overlap is weak (1 of 4 words); the vector carries the match.
    const vchunks = [
      { tokens: words('alpha beta'), vector: [1, 0] },
      { tokens: words('gamma delta'), vector: [0, 1] },
    ];
    const { answer } = insertCitations('Something about gamma only here.', vchunks, {
      tokenize: words,
      sentenceVectors: [[0.1, 1]],
      vectorWeight: 0.7,
    });
    expect(answer).toBe('Something about gamma only here. [ID:1]');
  });

  it('never cites inside code blocks and leaves unrelated sentences alone', () => {
    const { answer, cited } = insertCitations(
      '```\nParis is the capital of France\n```\nUnrelated words entirely.',
      chunks,
      { tokenize: words, sentenceVectors: null, vectorWeight: 0.3 },
    );
    expect(answer).toBe('```\nParis is the capital of France\n```\nUnrelated words entirely.');
    expect(cited.size).toBe(0);
  });

  it('caps citations at 4 per sentence', () => {
    const same = Array.from({ length: 6 }, () => ({ tokens: words('red apples grow'), vector: null }));
    const { answer } = insertCitations('Red apples grow.', same, {
      tokenize: words,
      sentenceVectors: null,
      vectorWeight: 0.3,
    });
    expect(answer.match(/\[ID:\d\]/g)).toHaveLength(4);
  });
});

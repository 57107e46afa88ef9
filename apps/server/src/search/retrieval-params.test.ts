import { describe, expect, it } from 'vitest';
import { RETRIEVAL_DEFAULTS, type RetrievalCaller } from './retrieval-defaults.js';
import { checkParams, parseRetrievalParams, RetrievalParamError } from './retrieval-params.js';

const base = { question: 'solar', kbIds: ['kb1'] };

function failure(fn: () => unknown): { code: number; message: string } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(RetrievalParamError);
    return { code: (err as RetrievalParamError).code, message: (err as Error).message };
  }
  throw new Error('expected a RetrievalParamError');
}

describe('retrieval defaults per caller (API.md §19.12)', () => {
  it('fills every absent parameter from the caller’s row', () => {
    const expected: Record<RetrievalCaller, [number, number, number, number, boolean]> = {
      retrieval_test: [0, 0.3, 1024, 30, true],
      public_retrieval: [0.2, 0.3, 1024, 30, false],
      chat: [0.1, 0.3, 1024, 6, false],
      search_app: [0.2, 0.3, 1024, 12, false],
      agent: [0.2, 0.5, 1024, 8, false],
    };
    for (const [caller, [threshold, vw, topK, size, highlight]] of Object.entries(expected)) {
      expect(parseRetrievalParams(base, caller as RetrievalCaller)).toEqual({
        question: 'solar',
        kbIds: ['kb1'],
        docIds: [],
        page: 1,
        size,
        similarityThreshold: threshold,
        vectorSimilarityWeight: vw,
        topK,
        rerankId: '',
        keyword: false,
        crossLanguages: [],
        useKg: false,
        tocEnhance: false,
        highlight,
      });
    }
  });

  it('keeps given values (numbers or numeric strings) and de-duplicates ids', () => {
    const p = parseRetrievalParams(
      {
        question: 'q',
        kbIds: ['a', 'b', 'a'],
        docIds: ['d', 'd'],
        page: '2',
        size: 5,
        similarity_threshold: '0.4',
        vector_similarity_weight: 0,
        top_k: 7,
        rerank_id: 'ranker@Xinference',
        keyword: true,
        cross_languages: ['French'],
        use_kg: null,
        toc_enhance: true,
        highlight: true,
      },
      'chat',
    );
    expect(p).toMatchObject({
      kbIds: ['a', 'b'],
      docIds: ['d'],
      page: 2,
      size: 5,
      topK: 7,
      rerankId: 'ranker@Xinference',
      keyword: true,
      crossLanguages: ['French'],
      useKg: false,
      tocEnhance: true,
      highlight: true,
    });
    expect(p.similarityThreshold).toBe(0.4);
    expect(p.vectorSimilarityWeight).toBe(0);
  });

  it('the engine’s own defaults are the retrieval_test row', () => {
    const p = checkParams(base);
    const row = RETRIEVAL_DEFAULTS.retrieval_test;
    expect([p.similarityThreshold, p.vectorSimilarityWeight, p.topK, p.page, p.size]).toEqual([
      row.similarityThreshold,
      row.vectorSimilarityWeight,
      row.topK,
      row.page,
      row.size,
    ]);
  });
});

describe('parseRetrievalParams refusals (API.md §1.5, §7)', () => {
  const parse = (over: Record<string, unknown>) => () =>
    parseRetrievalParams(
      { ...base, ...over } as Parameters<typeof parseRetrievalParams>[0],
      'retrieval_test',
    );

  it('answers in order: question type, numeric field types, then values', () => {
    expect(failure(parse({ question: 42, page: {} }))).toEqual({
      code: 100,
      message: '`question` must be a string.',
    });
    expect(failure(parse({ question: '', top_k: true }))).toEqual({
      code: 100,
      message: '`top_k` must be a number.',
    });
    expect(failure(parse({ question: ' ' }))).toEqual({
      code: 100,
      message: '`question` must be a non-empty string.',
    });
    expect(failure(parse({ kbIds: [] }))).toEqual({ code: 102, message: 'Please specify dataset firstly.' });
  });

  it('checks integers, bounds and fractions with the contract’s messages', () => {
    expect(failure(parse({ top_k: 0 })).message).toBe('`top_k` must be greater than 0.');
    expect(failure(parse({ top_k: 'lots' })).message).toBe('`top_k` must be a number.');
    expect(failure(parse({ size: 1.5 })).message).toBe('`size` must be an integer.');
    expect(failure(parse({ page: 0 })).message).toBe('`page` must be greater than 0.');
    expect(failure(parse({ similarity_threshold: 1.5 })).message).toBe(
      '`similarity_threshold` must be between 0 and 1.',
    );
    expect(failure(parse({ vector_similarity_weight: -0.1 })).message).toBe(
      '`vector_similarity_weight` must be between 0 and 1.',
    );
    expect(failure(parse({ keyword: 'yes' })).message).toBe('`keyword` must be a boolean.');
    expect(failure(parse({ use_kg: 1 })).message).toBe('`use_kg` must be a boolean.');
    expect(failure(parse({ rerank_id: 3 })).message).toBe('`rerank_id` must be a string.');
    expect(failure(parse({ cross_languages: 'French' })).message).toBe(
      '`cross_languages` must be a list of strings.',
    );
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { retrieve, RetrievalParamError, windowSize } from './retrieval.js';
import type { SqliteChunkIndex } from '../chunk-index/sqlite-index.js';
import { chunk, fillers, tempIndex } from '../chunk-index/test-helpers.js';

let t: ReturnType<typeof tempIndex>;
let index: SqliteChunkIndex;

beforeEach(() => {
  t = tempIndex();
  index = t.index;
});
afterEach(async () => {
  await t.close();
});

const ids = (r: { chunks: Array<{ chunk_id: string }> }) => r.chunks.map((c) => c.chunk_id);

describe('retrieve: candidates (§19.3)', () => {
  it('returns exactly the chunks matching the text, whatever the vectors say', async () => {
    const q = [1, 0, 0];
    const four = [1, 2, 3, 4].map((i) =>
      chunk({ id: `chunk${i}`, content_with_weight: `chunk test ${i}`, vector: [0.2, i, 1] }),
    );
    // A parsed chunk without the word, whose vector equals the query vector.
    const parsed = chunk({
      id: 'parsed',
      content_with_weight: 'Quarterly revenue grew in every region.',
      vector: q,
    });
    await index.upsert([...four, parsed]);
    const res = await retrieve(index, { question: 'chunk', kbIds: ['kb1'], queryVector: q });
    expect(res.total).toBe(4);
    expect(ids(res).sort()).toEqual(['chunk1', 'chunk2', 'chunk3', 'chunk4']);
    expect(res.keywordOnly).toBe(false);
  });

  it('only searches the given KBs and enabled chunks', async () => {
    const a = chunk({ content_with_weight: 'nectarine in kb1' });
    const b = chunk({ kb_id: 'kb2', content_with_weight: 'nectarine in kb2' });
    const c = chunk({ content_with_weight: 'nectarine disabled', available_int: 0 });
    await index.upsert([a, b, c, ...fillers(6), ...fillers(6, 'kb2')]);
    expect(ids(await retrieve(index, { question: 'nectarine', kbIds: ['kb1'] }))).toEqual([a.id]);
    expect(ids(await retrieve(index, { question: 'nectarine', kbIds: ['kb1', 'kb2'] })).sort()).toEqual(
      [a.id, b.id].sort(),
    );
    expect((await retrieve(index, { question: 'nectarine', kbIds: ['unknown'] })).total).toBe(0);
  });
});

describe('retrieve: ranking on hand-made corpora (exact order)', () => {
  it('English, keyword-only', async () => {
    const d1 = chunk({
      id: 'd1',
      content_with_weight: 'Solar panel efficiency improved with new anti-reflective coatings.',
    });
    const d2 = chunk({
      id: 'd2',
      content_with_weight: 'The efficiency of a solar panel depends on its temperature.',
    });
    const d3 = chunk({ id: 'd3', content_with_weight: 'Solar energy is abundant in deserts.' });
    const d4 = chunk({ id: 'd4', content_with_weight: 'A panel discussion on efficiency in government.' });
    const d5 = chunk({ id: 'd5', content_with_weight: 'Cooking pasta with tomato sauce.' });
    await index.upsert([d3, d5, d4, d2, d1, ...fillers(8)]);
    const res = await retrieve(index, {
      question: 'How can solar panel efficiency be improved?',
      kbIds: ['kb1'],
    });
    expect(ids(res)).toEqual(['d1', 'd2', 'd4', 'd3']);
    expect(res.keywordOnly).toBe(true);
    expect(res.chunks.every((c) => c.vector_similarity === 0)).toBe(true);
    expect(res.chunks[0].term_similarity).toBeCloseTo(1, 5);
    // The literal §19.4 rule (term similarity alone) gives the same order on this corpus.
    const literal = await retrieve(index, {
      question: 'How can solar panel efficiency be improved?',
      kbIds: ['kb1'],
      keywordOnlyScoring: 'term',
    });
    expect(ids(literal)).toEqual(['d1', 'd2', 'd4', 'd3']);
    expect(literal.chunks.map((c) => c.similarity)).toEqual(literal.chunks.map((c) => c.term_similarity));
  });

  it('keyword-only scores do not depend on vector_similarity_weight (no vector part exists)', async () => {
    const docs = [
      'Solar panel efficiency improved with new anti-reflective coatings.',
      'The efficiency of a solar panel depends on its temperature and panel age.',
      'Solar energy is abundant in deserts.',
      'A panel discussion on efficiency in government.',
    ].map((content_with_weight, i) => chunk({ id: `w${i}`, content_with_weight }));
    await index.upsert([...docs, ...fillers(8)]);
    const at = (vectorSimilarityWeight: number) =>
      retrieve(index, {
        question: 'How can solar panel efficiency be improved?',
        kbIds: ['kb1'],
        vectorSimilarityWeight,
        similarityThreshold: 0,
      });
    const base = await at(0.3);
    expect(base.keywordOnly).toBe(true);
    expect(base.total).toBe(4);
    for (const vw of [0, 0.5, 0.9]) {
      const other = await at(vw);
      expect(ids(other)).toEqual(ids(base));
      expect(other.chunks.map((c) => c.similarity)).toEqual(base.chunks.map((c) => c.similarity));
    }
    // similarity = 0.3·(normalized text relevance) + 0.7·term similarity.
    const top = base.chunks[0] as (typeof base.chunks)[number] & { text_similarity: number };
    expect(top.similarity).toBeCloseTo(0.3 * top.text_similarity + 0.7 * top.term_similarity, 9);
  });

  it('Chinese, keyword-only', async () => {
    const c1 = chunk({ id: 'c1', content_with_weight: '机器学习算法在图像识别中的应用' });
    const c2 = chunk({ id: 'c2', content_with_weight: '深度学习是机器学习的一个分支' });
    const c3 = chunk({ id: 'c3', content_with_weight: '排序算法的时间复杂度分析' });
    const c4 = chunk({ id: 'c4', content_with_weight: '今天天气很好，我们去公园散步' });
    await index.upsert([c4, c3, c2, c1, ...fillers(8)]);
    const res = await retrieve(index, { question: '什么是机器学习算法？', kbIds: ['kb1'] });
    expect(ids(res)).toEqual(['c1', 'c2', 'c3']);
    // Traditional characters in the question find the same chunks.
    expect(ids(await retrieve(index, { question: '什麼是機器學習算法？', kbIds: ['kb1'] }))).toEqual([
      'c1',
      'c2',
      'c3',
    ]);
  });

  it('hybrid: the vector weight decides between equally matching chunks', async () => {
    const near = chunk({ id: 'near', content_with_weight: 'lychee harvest report', vector: [1, 0.1] });
    const far = chunk({ id: 'far', content_with_weight: 'lychee harvest summary', vector: [0, 1] });
    await index.upsert([far, near, ...fillers(6)]);
    const res = await retrieve(index, {
      question: 'lychee harvest',
      kbIds: ['kb1'],
      queryVector: [1, 0],
      vectorSimilarityWeight: 0.5,
    });
    expect(ids(res)).toEqual(['near', 'far']);
    const [a, b] = res.chunks;
    expect(a.vector_similarity).toBeCloseTo(1 / Math.sqrt(1.01), 5);
    expect(b.vector_similarity).toBeCloseTo(0, 5);
    expect(a.similarity).toBeCloseTo(0.5 * a.vector_similarity + 0.5 * a.term_similarity, 6);
  });

  it('uses the rerank scores in place of the cosine', async () => {
    const a = chunk({ id: 'a', content_with_weight: 'durian market prices' });
    const b = chunk({ id: 'b', content_with_weight: 'durian market stalls' });
    await index.upsert([a, b, ...fillers(6)]);
    const rerank = async (_q: string, texts: string[]) =>
      texts.map((x) => (x.includes('stalls') ? 0.9 : 0.1));
    const res = await retrieve(index, {
      question: 'durian market',
      kbIds: ['kb1'],
      rerank,
      vectorSimilarityWeight: 0.7,
    });
    expect(ids(res)).toEqual(['b', 'a']);
    expect(res.chunks[0].vector_similarity).toBe(0.9);
  });

  it('adds pagerank and tag features', async () => {
    const a = chunk({ id: 'a', content_with_weight: 'guava juice recipe' });
    const b = chunk({ id: 'b', kb_id: 'kb2', content_with_weight: 'guava juice recipe', pagerank_fea: 0.5 });
    const c = chunk({ id: 'c', content_with_weight: 'guava juice recipe', tag_feas: { drinks: 2 } });
    await index.upsert([a, b, c, ...fillers(8), ...fillers(8, 'kb2')]);
    const res = await retrieve(index, {
      question: 'guava juice',
      kbIds: ['kb1', 'kb2'],
      tagWeights: { drinks: 1 },
    });
    expect(ids(res)).toEqual(['c', 'b', 'a']);
    expect(res.chunks[0].similarity - res.chunks[2].similarity).toBeCloseTo(10, 5);
  });
});

describe('retrieve: threshold, window, paging, doc_aggs (§19.5)', () => {
  it('drops chunks under the threshold, except when the vector weight is 0', async () => {
    const full = chunk({ id: 'full', content_with_weight: 'mulberry jam jar' });
    const part = chunk({ id: 'part', content_with_weight: 'mulberry tree' });
    await index.upsert([full, part, ...fillers(6)]);
    const q = { question: 'mulberry jam jar', kbIds: ['kb1'], keywordOnlyScoring: 'term' as const };
    const all = await retrieve(index, { ...q, similarityThreshold: 0 });
    expect(ids(all)).toEqual(['full', 'part']);
    const kept = await retrieve(index, { ...q, similarityThreshold: 0.9 });
    expect(ids(kept)).toEqual(['full']);
    expect(kept.total).toBe(1);
    expect(ids(await retrieve(index, { ...q, similarityThreshold: 0.9, vectorSimilarityWeight: 0 }))).toEqual(
      ['full', 'part'],
    );
  });

  it('computes the window W', () => {
    expect(windowSize(1)).toBe(30);
    expect(windowSize(10)).toBe(70);
    expect(windowSize(30)).toBe(90);
    expect(windowSize(64)).toBe(64);
    expect(windowSize(100)).toBe(100);
  });

  it('pages inside the window and fetches the next window when needed', async () => {
    const rows = Array.from({ length: 40 }, (_, i) =>
      chunk({ id: `r${String(i).padStart(2, '0')}`, content_with_weight: `elderberry item ${i}` }),
    );
    await index.upsert([...rows, ...fillers(50)]);
    const q = { question: 'elderberry', kbIds: ['kb1'] };
    const pages = await Promise.all([1, 2, 3, 4, 5].map((page) => retrieve(index, { ...q, size: 10, page })));
    expect(pages.map((p) => p.chunks.length)).toEqual([10, 10, 10, 10, 0]);
    expect(pages[0].total).toBe(40);
    expect(new Set(pages.flatMap((p) => ids(p))).size).toBe(40);
    // size 1: W = 30, so page 31 is the first row of the second window (rows 30..39 of 40).
    const p31 = await retrieve(index, { ...q, size: 1, page: 31 });
    expect(p31.total).toBe(10);
    expect(p31.chunks).toHaveLength(1);
    const p1 = await retrieve(index, { ...q, size: 1, page: 1 });
    expect(p1.total).toBe(30);
  });

  it('aggregates documents over all kept chunks, most hits first', async () => {
    const docs = [
      ...[1, 2, 3].map((i) =>
        chunk({ doc_id: 'dB', docnm_kwd: 'b.txt', content_with_weight: `persimmon b${i}` }),
      ),
      chunk({ doc_id: 'dA', docnm_kwd: 'a.txt', content_with_weight: 'persimmon a1' }),
      ...[1, 2].map((i) =>
        chunk({ doc_id: 'dC', docnm_kwd: 'c.txt', content_with_weight: `persimmon c${i}` }),
      ),
    ];
    await index.upsert([...docs, ...fillers(10)]);
    const res = await retrieve(index, { question: 'persimmon', kbIds: ['kb1'], size: 2 });
    expect(res.chunks).toHaveLength(2);
    expect(res.doc_aggs).toEqual([
      { doc_name: 'b.txt', doc_id: 'dB', count: 3 },
      { doc_name: 'c.txt', doc_id: 'dC', count: 2 },
      { doc_name: 'a.txt', doc_id: 'dA', count: 1 },
    ]);
  });

  it('filters by document and falls back to the documents chunks when the text matches none', async () => {
    const a = chunk({ doc_id: 'd1', content_with_weight: 'apricot one', positions: [[1, 0, 0, 5, 6]] });
    const b = chunk({ doc_id: 'd2', content_with_weight: 'apricot two' });
    const c = chunk({ doc_id: 'd1', content_with_weight: 'unrelated words', positions: [[2, 0, 0, 5, 6]] });
    await index.upsert([a, b, c, ...fillers(6)]);
    expect(ids(await retrieve(index, { question: 'apricot', kbIds: ['kb1'], docIds: ['d2'] }))).toEqual([
      b.id,
    ]);
    const fallback = await retrieve(index, { question: 'zucchini', kbIds: ['kb1'], docIds: ['d1'] });
    expect(ids(fallback)).toEqual([a.id, c.id]);
  });

  it('retries a CJK question at 10 % minimum-should-match when nothing matches 30 %', async () => {
    const a = chunk({ id: 'a', content_with_weight: '火锅的历史' });
    await index.upsert([a, ...fillers(6)]);
    const res = await retrieve(index, {
      question: '火锅 飞机 轮船 火车 汽车 地铁 自行车 摩托 卡车 马车',
      kbIds: ['kb1'],
    });
    expect(ids(res)).toEqual(['a']);
  });

  it('replaces children sharing a mom_id by their parent', async () => {
    const parent = chunk({
      id: 'parent',
      content_with_weight: 'Parent section about tamarind and other fruit.',
    });
    const k1 = chunk({ id: 'k1', content_with_weight: 'tamarind child one', mom_id: 'parent' });
    const k2 = chunk({ id: 'k2', content_with_weight: 'tamarind child two', mom_id: 'parent' });
    const solo = chunk({ id: 'solo', content_with_weight: 'tamarind solo' });
    await index.upsert([parent, k1, k2, solo, ...fillers(8)]);
    const res = await retrieve(index, { question: 'tamarind child', kbIds: ['kb1'] });
    expect(ids(res).sort()).toEqual(['parent', 'solo']);
    expect(res.chunks.find((c) => c.chunk_id === 'parent')!.content_with_weight).toContain('Parent section');
  });
});

describe('retrieve: highlight and output', () => {
  it('highlights Latin text sentence by sentence and CJK text in place', async () => {
    const en = chunk({
      id: 'en',
      content_with_weight: 'Chunks are small. Nothing here. Another chunk follows!',
    });
    const zh = chunk({ id: 'zh', content_with_weight: '机器学习很有趣，我们学习它' });
    await index.upsert([en, zh, ...fillers(6)]);
    const res = await retrieve(index, { question: 'chunk', kbIds: ['kb1'], highlight: true });
    // Joined with "...", never "....": the first sentence's period gives way to the join.
    expect(res.chunks[0].highlight).toBe('<em>Chunks</em> are small...Another <em>chunk</em> follows!');
    const z = await retrieve(index, { question: '机器学习', kbIds: ['kb1'], highlight: true });
    expect(z.chunks[0].highlight).toBe('<em>机器学习</em>很有趣，我们<em>学习</em>它');
    const plain = await retrieve(index, { question: 'chunk', kbIds: ['kb1'] });
    expect(plain.chunks[0].highlight).toBeUndefined();
    expect(plain.chunks[0]).toMatchObject({
      chunk_id: 'en',
      content_ltks: 'chunk small noth anoth chunk follow',
      kb_id: 'kb1',
    });
  });
});

describe('retrieve: bad parameters', () => {
  const base = { question: 'x', kbIds: ['kb1'] };
  it.each([
    [{ ...base, question: '  ' }, '`question` must be a non-empty string.'],
    [{ ...base, kbIds: [] }, 'Please specify dataset firstly.'],
    [{ ...base, topK: 0 }, '`top_k` must be greater than 0.'],
    [{ ...base, topK: 'many' }, '`top_k` must be a number.'],
    [{ ...base, page: 0 }, '`page` must be greater than 0.'],
    [{ ...base, size: 2.5 }, '`size` must be an integer.'],
    [{ ...base, similarityThreshold: 'high' }, '`similarity_threshold` must be a number.'],
    [{ ...base, similarityThreshold: 1.5 }, '`similarity_threshold` must be between 0 and 1.'],
    [{ ...base, vectorSimilarityWeight: -0.1 }, '`vector_similarity_weight` must be between 0 and 1.'],
  ])('rejects %j', async (params, message) => {
    await expect(retrieve(index, params as never)).rejects.toThrow(RetrievalParamError);
    await expect(retrieve(index, params as never)).rejects.toMatchObject({
      message,
      code: message.startsWith('Please') ? 102 : 100,
    });
  });

  it('accepts numeric strings', async () => {
    await index.upsert([chunk({ content_with_weight: 'olive' })]);
    const res = await retrieve(index, {
      question: 'olive',
      kbIds: ['kb1'],
      topK: '5',
      similarityThreshold: '0.1',
      page: '1',
    });
    expect(res.total).toBe(1);
  });
});

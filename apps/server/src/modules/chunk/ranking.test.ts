import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAIStandin, type Standin } from '../../../test/standins/index.js';
import { createKb } from '../kb/test-support.js';
import { addChunk, addModel, corpus, emptyDoc, retrieval } from './test-support.js';

/**
 * Ranking through the HTTP API on small hand-made corpora (API.md §19.3–§19.5). Each corpus is built so
 * that the expected order follows from the rules, not from tuning: the chunks' sets of query words are
 * nested (all ⊃ two ⊃ one), so term similarity orders them whatever the term weights are, and a chunk
 * without any query word is never a candidate. Field weights decide between equal term similarities
 * (important keywords ^30, title ^10 over content ^2).
 */
describe('retrieval ranking on hand-made corpora (exact order)', () => {
  let server: TestServer;
  let llm: Standin;
  let alice: TestUser;
  let embdId: string;

  beforeAll(async () => {
    llm = await startOpenAIStandin({ embeddingDim: 64 });
    server = await startTestServer();
    alice = await newUser(server, 'ranker');
    embdId = await addModel(server, alice, {
      llm_factory: 'OpenAI-API-Compatible',
      llm_name: 'vecs',
      model_type: 'embedding',
      api_base: `${llm.url}/v1`,
    });
  });
  afterAll(async () => {
    await server.close();
    await llm.close();
  });

  const english = [
    'Solar panel efficiency drops as the photovoltaic cells heat up.', // solar, panel, efficiency
    'A solar panel needs a sturdy roof mount.', // solar, panel
    'Solar energy is abundant in deserts.', // solar
    'Wind turbines convert moving air into electricity.', // none
  ];
  const chinese = [
    '太阳能电池的效率随着温度升高而下降。', // 太阳能, 电池, 效率
    '太阳能电池需要安装在屋顶上。', // 太阳能, 电池
    '太阳能是一种清洁能源。', // 太阳能
    '今天的足球比赛非常精彩。', // none
  ];

  async function order(kbId: string, question: string, extra: Record<string, unknown> = {}) {
    const res = await retrieval(server, alice.token, { kb_id: kbId, question, ...extra });
    expect(res.code, res.message).toBe(0);
    return res.data!;
  }

  for (const mode of ['keyword-only', 'hybrid'] as const) {
    const model = () => (mode === 'hybrid' ? embdId : '');

    it(`English, ${mode}: more of the question's words rank higher; no shared word, no hit`, async () => {
      const { kbId, ids } = await corpus(server, alice, english, { name: `en ${mode}`, embd_id: model() });
      const data = await order(kbId, 'solar panel efficiency');
      expect(data.keyword_only).toBe(mode === 'keyword-only');
      expect(data.chunks.map((c) => c.chunk_id)).toEqual([ids[0], ids[1], ids[2]]);
      const terms = data.chunks.map((c) => c.term_similarity);
      expect(terms[0]).toBe(1);
      expect(terms[0]).toBeGreaterThan(terms[1]);
      expect(terms[1]).toBeGreaterThan(terms[2]);
      // Question words are stemmed like the content ("panels" finds "panel"), question words dropped:
      // the first two chunks now hold the whole question.
      const stemmed = await order(kbId, 'What are solar panels?');
      expect(
        stemmed.chunks
          .slice(0, 2)
          .map((c) => c.chunk_id)
          .sort(),
      ).toEqual([ids[0], ids[1]].sort());
      expect(stemmed.chunks.slice(0, 2).map((c) => c.term_similarity)).toEqual([1, 1]);
      expect(stemmed.chunks.map((c) => c.chunk_id)[2]).toBe(ids[2]);
      expect(stemmed.total).toBe(3);
    });

    it(`Chinese, ${mode}: jieba tokens, the same nested order, traditional characters too`, async () => {
      const { kbId, ids } = await corpus(
        server,
        alice,
        chinese,
        { name: `zh ${mode}`, embd_id: model(), language: 'Chinese' },
        '资料.txt',
      );
      const data = await order(kbId, '太阳能电池的效率');
      expect(data.chunks.map((c) => c.chunk_id)).toEqual([ids[0], ids[1], ids[2]]);
      expect(data.chunks[0].highlight).toBe('<em>太阳能电池</em>的<em>效率</em>随着温度升高而下降。');
      const traditional = await order(kbId, '太陽能電池的效率');
      expect(traditional.chunks.map((c) => c.chunk_id)).toEqual([ids[0], ids[1], ids[2]]);
    });
  }

  it('equal term similarity: an important keyword, then a title match, outranks plain content', async () => {
    const kbId = await createKb(server, alice.token, { name: 'fields', embd_id: '' });
    const plainDoc = await emptyDoc(server, alice.token, kbId, 'misc.txt');
    const titleDoc = await emptyDoc(server, alice.token, kbId, 'battery.txt');
    const plain = await addChunk(server, alice.token, plainDoc, 'Notes on battery storage for homes.');
    const titled = await addChunk(server, alice.token, titleDoc, 'Notes on battery storage for homes.');
    const keyword = await addChunk(server, alice.token, plainDoc, 'Notes on battery recycling plants.', {
      important_kwd: ['battery'],
    });
    const data = await order(kbId, 'battery');
    expect(data.chunks.map((c) => c.term_similarity)).toEqual([1, 1, 1]);
    expect(data.chunks.map((c) => c.chunk_id)).toEqual([keyword, titled, plain]);
  });

  it('Chinese and English mixed in one question and one corpus', async () => {
    const { kbId, ids } = await corpus(
      server,
      alice,
      [
        'GPU 加速深度学习训练。', // gpu, 深度, 学习
        '深度学习需要大量数据。', // 深度, 学习
        'GPU prices went up this year.', // gpu
        '天气很好。',
      ],
      { name: 'mixed', embd_id: '' },
    );
    const data = await order(kbId, 'GPU深度学习');
    expect(data.chunks.map((c) => c.chunk_id)).toEqual([ids[0], ids[1], ids[2]]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import {
  lexicalScore,
  standinEmbedding,
  startOpenAIStandin,
  startRerankStandin,
  type Standin,
} from '../../../test/standins/index.js';
import { cosine } from '../../search/scoring.js';
import { createKb } from '../kb/test-support.js';
import { addChunk, addModel, corpus, emptyDoc, retrieval } from './test-support.js';

const DIM = 48;
const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(1e-9);
// Vectors are stored as float32: cosines agree to about 1e-7.
const closeF32 = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(1e-6);

describe('retrieval testing (API.md §7 retrieval_test, §19)', () => {
  let server: TestServer;
  let llm: Standin;
  let rr: Standin;
  let alice: TestUser;
  let bob: TestUser;
  let embdId: string;
  let otherEmbdId: string;
  let rerankId: string;
  let vectorKb: string;
  let keywordKb: string;

  const energy = [
    'Photovoltaic solar panels convert sunlight into electricity.',
    'Solar panels lose efficiency when they are hot.',
    'Batteries store solar energy for the night.',
    'Wind turbines turn moving air into power.',
  ];

  beforeAll(async () => {
    llm = await startOpenAIStandin({ embeddingDim: DIM });
    rr = await startRerankStandin({ flavor: 'jina' });
    server = await startTestServer();
    alice = await newUser(server, 'alice');
    bob = await newUser(server, 'bob');
    embdId = await addModel(server, alice, {
      llm_factory: 'OpenAI-API-Compatible',
      llm_name: 'vecs',
      model_type: 'embedding',
      api_base: `${llm.url}/v1`,
    });
    otherEmbdId = await addModel(server, alice, {
      llm_factory: 'OpenAI-API-Compatible',
      llm_name: 'other-vecs',
      model_type: 'embedding',
      api_base: `${llm.url}/v1`,
    });
    rerankId = await addModel(server, alice, {
      llm_factory: 'Xinference',
      llm_name: 'ranker',
      model_type: 'rerank',
      api_base: rr.url,
    });
    vectorKb = (
      await corpus(server, alice, energy, { name: 'Energy (vectors)', embd_id: embdId }, 'energy.txt')
    ).kbId;
    keywordKb = (
      await corpus(server, alice, energy, { name: 'Energy (keywords)', embd_id: '' }, 'energy.txt')
    ).kbId;
  });
  afterAll(async () => {
    await server.close();
    await llm.close();
    await rr.close();
  });

  it('hybrid: similarity = 0.3·cosine + 0.7·term similarity with the defaults, non-matching chunks never candidates', async () => {
    const res = await retrieval(server, alice.token, { kb_id: vectorKb, question: 'solar panels' });
    expect(res.code).toBe(0);
    const data = res.data!;
    expect(data).toMatchObject({ keyword_only: false, notice: null, labels: null });
    // Only chunks with a query word are candidates: the wind chunk never appears.
    expect(data.chunks.map((c) => c.content_with_weight).sort()).toEqual(energy.slice(0, 3).sort());
    expect(data.total).toBe(3);
    const index = server.ctx.chunkIndex;
    const q = standinEmbedding('solar panels', DIM);
    for (const hit of data.chunks) {
      const stored = (await index.get(hit.chunk_id))!;
      closeF32(hit.vector_similarity, cosine(q, stored.vector));
      close(hit.similarity, 0.3 * hit.vector_similarity + 0.7 * hit.term_similarity);
      expect(Object.keys(hit)).toEqual(
        expect.arrayContaining([
          'chunk_id',
          'content_ltks',
          'content_with_weight',
          'doc_id',
          'docnm_kwd',
          'kb_id',
          'important_kwd',
          'image_id',
          'similarity',
          'vector_similarity',
          'term_similarity',
          'positions',
          'doc_type_kwd',
          'mom_id',
        ]),
      );
      expect(Object.keys(hit).some((k) => /vec/.test(k) && k !== 'vector_similarity')).toBe(false);
    }
    const sims = data.chunks.map((c) => c.similarity);
    expect([...sims].sort((a, b) => b - a)).toEqual(sims);
    expect(data.chunks[0].highlight).toContain('<em>');
    expect(data.doc_aggs).toEqual([{ doc_name: 'energy.txt', doc_id: data.chunks[0].doc_id, count: 3 }]);

    // The keyword weight moves the mix: vw = 0.9.
    const vw = await retrieval(server, alice.token, {
      kb_id: vectorKb,
      question: 'solar panels',
      vector_similarity_weight: 0.9,
    });
    for (const hit of vw.data!.chunks)
      close(hit.similarity, 0.9 * hit.vector_similarity + 0.1 * hit.term_similarity);
  });

  it('keyword-only when the KB has no usable embedding model, and says so', async () => {
    const before = llm.requests.length;
    const res = await retrieval(server, alice.token, { kb_id: keywordKb, question: 'solar panels' });
    expect(res.code).toBe(0);
    expect(res.data!.keyword_only).toBe(true);
    expect(res.data!.notice).toMatch(/keyword matching only/);
    expect(res.data!.chunks.length).toBe(3);
    for (const hit of res.data!.chunks) {
      expect(hit.vector_similarity).toBe(0);
      close(hit.similarity, 0.3 * (hit.text_similarity as number) + 0.7 * hit.term_similarity);
    }
    expect(llm.requests.length).toBe(before); // no embedding call
  });

  it('similarity threshold, paging, doc_ids filter and doc_aggs over every kept chunk', async () => {
    const kb = await createKb(server, alice.token, { name: 'Two docs', embd_id: '' });
    const a = await emptyDoc(server, alice.token, kb, 'a.txt');
    const b = await emptyDoc(server, alice.token, kb, 'b.txt');
    for (let i = 1; i <= 3; i++)
      await addChunk(server, alice.token, a, `chunk test ${i} in the first document`);
    for (let i = 1; i <= 2; i++)
      await addChunk(server, alice.token, b, `chunk test ${i} in the second document`);
    await addChunk(server, alice.token, b, 'parsed content without the word');

    const all = await retrieval(server, alice.token, { kb_id: [kb], question: 'chunk' });
    expect(all.data!.total).toBe(5);
    expect(all.data!.doc_aggs).toEqual([
      { doc_name: 'a.txt', doc_id: a, count: 3 },
      { doc_name: 'b.txt', doc_id: b, count: 2 },
    ]);
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const p = await retrieval(server, alice.token, { kb_id: kb, question: 'chunk', size: 2, page });
      expect(p.data!.total).toBe(5);
      expect(p.data!.doc_aggs.reduce((s, d) => s + d.count, 0)).toBe(5);
      seen.push(...p.data!.chunks.map((c) => c.chunk_id));
    }
    expect(seen.length).toBe(5);
    expect(new Set(seen).size).toBe(5);

    const onlyB = await retrieval(server, alice.token, { kb_id: kb, question: 'chunk', doc_ids: [b] });
    expect(onlyB.data!.chunks.every((c) => c.doc_id === b)).toBe(true);
    expect(onlyB.data!.doc_aggs).toEqual([{ doc_name: 'b.txt', doc_id: b, count: 2 }]);

    // The first document's chunks hold every query word; the second's lack "first" and score lower.
    const some = await retrieval(server, alice.token, {
      kb_id: kb,
      question: 'chunk test first',
      similarity_threshold: 0.7,
    });
    expect(some.data!.total).toBe(3);
    expect(some.data!.chunks.every((c) => c.doc_id === a && c.similarity >= 0.7)).toBe(true);
    expect(some.data!.doc_aggs).toEqual([{ doc_name: 'a.txt', doc_id: a, count: 3 }]);
    const none = await retrieval(server, alice.token, {
      kb_id: kb,
      question: 'chunk test first',
      similarity_threshold: 0.9,
    });
    expect(none.data).toMatchObject({ total: 0, chunks: [], doc_aggs: [] });
  });

  it('searches several KBs of one embedding model; refuses KBs with different ones', async () => {
    const second = (
      await corpus(
        server,
        alice,
        ['Solar farms need land.'],
        { name: 'More energy', embd_id: embdId },
        'farms.txt',
      )
    ).kbId;
    const both = await retrieval(server, alice.token, { kb_id: [vectorKb, second], question: 'solar' });
    expect(new Set(both.data!.chunks.map((c) => c.kb_id))).toEqual(new Set([vectorKb, second]));
    const mixed = (
      await corpus(server, alice, ['Solar roofs.'], { name: 'Other model', embd_id: otherEmbdId })
    ).kbId;
    const res = await retrieval(server, alice.token, { kb_id: [vectorKb, mixed], question: 'solar' });
    expect(res.code).toBe(102);
    expect(res.message).toMatch(/different embedding models/);
    const withKeywordOnly = await retrieval(server, alice.token, {
      kb_id: [vectorKb, keywordKb],
      question: 'solar',
    });
    expect(withKeywordOnly.code).toBe(102);
  });

  it('uses a rerank model: vector_similarity is the model relevance of question and chunk text', async () => {
    const res = await retrieval(server, alice.token, {
      kb_id: vectorKb,
      question: 'solar panels efficiency',
      rerank_id: rerankId,
    });
    expect(res.code).toBe(0);
    for (const hit of res.data!.chunks) {
      const text = [hit.content_with_weight, hit.docnm_kwd, ...((hit.important_kwd as string[]) ?? [])].join(
        '\n',
      );
      close(hit.vector_similarity, lexicalScore('solar panels efficiency', text));
      close(hit.similarity, 0.3 * hit.vector_similarity + 0.7 * hit.term_similarity);
    }
    expect(rr.modelCalls().at(-1)?.body).toMatchObject({ model: 'ranker', query: 'solar panels efficiency' });
    const unknown = await retrieval(server, alice.token, {
      kb_id: vectorKb,
      question: 'solar',
      rerank_id: 'nope@Xinference',
    });
    expect(unknown.code).toBe(102);
  });

  it('labels the question from the tag sets and ranks chunks whose tags match first', async () => {
    const tagKb = (
      await corpus(
        server,
        alice,
        [
          { content: 'solar panels on roofs', tag_kwd: ['energy'] },
          { content: 'photovoltaic solar cells', tag_kwd: ['energy'] },
          { content: 'football match results', tag_kwd: ['sports'] },
        ],
        { name: 'Tags', parser_id: 'tag', embd_id: '' },
      )
    ).kbId;
    const { kbId, ids } = await corpus(
      server,
      alice,
      [
        { content: 'Solar power plants and solar power prices.' },
        { content: 'Solar news of the week.', tag_feas: { energy: 3 } },
      ],
      { name: 'Tagged', embd_id: '', parser_config: { tag_kb_ids: [tagKb] } },
    );
    const res = await retrieval(server, alice.token, { kb_id: kbId, question: 'solar power' });
    expect(res.code).toBe(0);
    // 0.1·(2+1)/(2+1000) / ((2+1)/(3+1000)) rounds to 0, kept at least 1.
    expect(res.data!.labels).toEqual({ energy: 1 });
    // rank_fea = 10·cos(labels, tag_feas) = 10 lifts the tagged chunk above the better text match.
    expect(res.data!.chunks.map((c) => c.chunk_id)).toEqual([ids[1], ids[0]]);
    expect(res.data!.chunks[0].similarity).toBeGreaterThan(10);
    const plain = await retrieval(server, alice.token, { kb_id: keywordKb, question: 'solar power' });
    expect(plain.data!.labels).toBeNull();
  });

  it('refuses bad input and other tenants’ KBs with the contract errors, before any model call', async () => {
    const bobKb = (await corpus(server, bob, ['Solar for Bob.'], { name: 'Bob', embd_id: embdId })).kbId;
    const before = llm.requests.length;
    const ask = (body: Record<string, unknown>, token = alice.token) => retrieval(server, token, body);
    expect(await ask({})).toMatchObject({
      code: 101,
      message: 'required argument are missing: kb_id,question; ',
    });
    expect(await ask({ kb_id: vectorKb })).toMatchObject({
      code: 101,
      message: 'required argument are missing: question; ',
    });
    expect(await ask({ kb_id: [], question: 'solar' })).toMatchObject({
      code: 102,
      message: 'Please specify dataset firstly.',
    });
    expect(await ask({ kb_id: '', question: 'solar' })).toMatchObject({
      code: 102,
      message: 'Please specify dataset firstly.',
    });
    expect(await ask({ kb_id: 5, question: 'solar' })).toMatchObject({
      code: 100,
      message: '`kb_id` must be a string or a list of strings.',
    });
    expect(await ask({ kb_id: vectorKb, question: '' })).toMatchObject({
      code: 100,
      message: '`question` must be a non-empty string.',
    });
    expect(await ask({ kb_id: vectorKb, question: '   ' })).toMatchObject({
      code: 100,
      message: '`question` must be a non-empty string.',
    });
    expect(await ask({ kb_id: vectorKb, question: 42 })).toMatchObject({
      code: 100,
      message: '`question` must be a string.',
    });
    expect(await ask({ kb_id: vectorKb, question: 'solar', top_k: 0 })).toMatchObject({
      code: 100,
      message: '`top_k` must be greater than 0.',
    });
    expect(await ask({ kb_id: vectorKb, question: 'solar', top_k: -3 })).toMatchObject({
      code: 100,
      message: '`top_k` must be greater than 0.',
    });
    expect(await ask({ kb_id: vectorKb, question: 'solar', top_k: 'lots' })).toMatchObject({
      code: 100,
      message: '`top_k` must be a number.',
    });
    expect(await ask({ kb_id: vectorKb, question: 'solar', similarity_threshold: 'high' })).toMatchObject({
      code: 100,
      message: '`similarity_threshold` must be a number.',
    });
    expect(await ask({ kb_id: vectorKb, question: 'solar', similarity_threshold: 1.5 })).toMatchObject({
      code: 100,
      message: '`similarity_threshold` must be between 0 and 1.',
    });
    expect(await ask({ kb_id: vectorKb, question: 'solar', vector_similarity_weight: -0.1 })).toMatchObject({
      code: 100,
      message: '`vector_similarity_weight` must be between 0 and 1.',
    });
    expect(
      await ask({ kb_id: vectorKb, question: 'solar', vector_similarity_weight: { w: 1 } }),
    ).toMatchObject({ code: 100, message: '`vector_similarity_weight` must be a number.' });
    expect(await ask({ kb_id: vectorKb, question: 'solar', page: 0 })).toMatchObject({
      code: 100,
      message: '`page` must be greater than 0.',
    });
    expect(await ask({ kb_id: vectorKb, question: 'solar', size: 2.5 })).toMatchObject({
      code: 100,
      message: '`size` must be an integer.',
    });
    expect(await ask({ kb_id: vectorKb, question: 'solar', doc_ids: 'abc' })).toMatchObject({
      code: 100,
      message: '`doc_ids` must be a list.',
    });

    // Another tenant's KB, alone or beside one's own, and unknown KBs: 103.
    const owner = 'Only owner of dataset authorized for this operation.';
    expect(await ask({ kb_id: vectorKb, question: 'solar' }, bob.token)).toMatchObject({
      code: 103,
      message: owner,
    });
    expect(await ask({ kb_id: [bobKb, vectorKb], question: 'solar' })).toMatchObject({
      code: 103,
      message: owner,
    });
    expect(await ask({ kb_id: 'a'.repeat(32), question: 'solar' })).toMatchObject({
      code: 103,
      message: owner,
    });
    expect(llm.requests.length).toBe(before); // nothing was embedded for any refused request
  });
});

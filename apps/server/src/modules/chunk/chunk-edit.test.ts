import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../../../test/harness.js';
import { standinEmbedding } from '../../../test/standins/index.js';
import { countTokens } from '../../ingest/tokens.js';
import { cosine } from '../../search/scoring.js';
import { createKb } from '../kb/test-support.js';
import {
  addChunk,
  counters,
  emptyDoc,
  get,
  post,
  FIXTURE_DIM,
  startChunkFixture,
  type ChunkFixture,
  type Listed,
} from './test-support.js';

const DIM = FIXTURE_DIM;

describe('editing chunks: set, switch, rm (API.md §7)', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let embdId: string;
  let kbId: string;
  let docId: string;
  let fixture: ChunkFixture;

  beforeAll(async () => {
    fixture = await startChunkFixture();
    ({ server, alice, bob, embdId, kbId, docId } = fixture);
  });
  afterAll(async () => fixture.close());

  const vectorOf = async (id: string) => (await server.ctx.chunkIndex.get(id))!.vector;

  it('sets a chunk: re-tokenized, re-embedded (questions when given), token counters follow', async () => {
    const id = await addChunk(server, alice.token, docId, 'Clean the panels twice a year.');
    const before = await counters(server, docId);
    const content = 'Clean the mirrors every quarter with demineralised water.';
    const res = await post(server, alice.token, '/v1/chunk/set', {
      doc_id: docId,
      chunk_id: id,
      content_with_weight: content,
      important_kwd: ['maintenance'],
    });
    expect(res).toEqual({ code: 0, message: 'success', data: true });
    const delta = countTokens(content) - countTokens('Clean the panels twice a year.');
    const after = await counters(server, docId);
    expect(after.doc).toEqual({ chunks: before.doc.chunks, tokens: before.doc.tokens + delta });
    expect(after.kb).toEqual({ chunks: before.kb.chunks, tokens: before.kb.tokens + delta });
    const name = standinEmbedding('notes.txt', DIM);
    const body = standinEmbedding(content, DIM);
    expect(
      cosine(
        (await vectorOf(id))!,
        name.map((x, i) => 0.1 * x + 0.9 * body[i]),
      ),
    ).toBeGreaterThan(0.9999);
    // The new words are searchable, the old ones are gone.
    const hit = await post<Listed>(server, alice.token, '/v1/chunk/list', {
      doc_id: docId,
      keywords: 'demineralised',
    });
    expect(hit.data!.chunks.map((c) => c.chunk_id)).toEqual([id]);
    expect(
      (await post<Listed>(server, alice.token, '/v1/chunk/list', { doc_id: docId, keywords: 'twice' })).data!
        .total,
    ).toBe(0);
    const stored = await get<Record<string, unknown>>(server, alice.token, `/v1/chunk/get?chunk_id=${id}`);
    expect(stored.data).toMatchObject({ content_with_weight: content, important_kwd: ['maintenance'] });

    // With questions the embedding is of the joined questions.
    await post(server, alice.token, '/v1/chunk/set', {
      doc_id: docId,
      chunk_id: id,
      content_with_weight: content,
      question_kwd: ['How to clean mirrors?', 'How often?'],
    });
    // Joined by newline, whitespace collapsed before embedding (as the ingestion pipeline does).
    const q = standinEmbedding('How to clean mirrors? How often?', DIM);
    expect(
      cosine(
        (await vectorOf(id))!,
        name.map((x, i) => 0.1 * x + 0.9 * q[i]),
      ),
    ).toBeGreaterThan(0.9999);
  });

  it('refuses bad set input with the contract messages and changes nothing', async () => {
    const id = await addChunk(server, alice.token, docId, 'Turbines are placed on ridges.');
    const set = (body: Record<string, unknown>, token = alice.token) =>
      post(server, token, '/v1/chunk/set', { doc_id: docId, chunk_id: id, ...body });
    expect(await post(server, alice.token, '/v1/chunk/set', {})).toMatchObject({
      code: 101,
      message: 'required argument are missing: doc_id,chunk_id,content_with_weight; ',
    });
    expect(await set({ content_with_weight: ['x'] })).toMatchObject({
      code: 100,
      message: '`content_with_weight` must be a string.',
    });
    expect(await set({ content_with_weight: 'new text', important_kwd: 'a,b' })).toMatchObject({
      code: 102,
      message: '`important_kwd` should be a list',
    });
    expect(await set({ content_with_weight: 'new text', question_kwd: 'why' })).toMatchObject({
      code: 102,
      message: '`question_kwd` should be a list',
    });
    expect(await set({ content_with_weight: 'new text' }, bob.token)).toMatchObject({
      code: 109,
      message: 'No authorization.',
    });
    expect(await set({ chunk_id: '0123456789abcdef', content_with_weight: 'new text' })).toMatchObject({
      code: 102,
      message: 'Chunk not found!',
    });
    const stored = await get<Record<string, unknown>>(server, alice.token, `/v1/chunk/get?chunk_id=${id}`);
    expect(stored.data!.content_with_weight).toBe('Turbines are placed on ridges.');
  });

  it('sets a chunk of a qa document: question and answer split, only the question searched and embedded', async () => {
    const kb = await createKb(server, alice.token, { name: 'FAQ', parser_id: 'qa', embd_id: embdId });
    const doc = await emptyDoc(server, alice.token, kb, 'faq.txt');
    const id = await addChunk(server, alice.token, doc, 'Question: old\tAnswer: old');
    await post(server, alice.token, '/v1/chunk/set', {
      doc_id: doc,
      chunk_id: id,
      content_with_weight: 'How long do batteries last?\nAbout ten years with care.',
    });
    const stored = await get<Record<string, unknown>>(server, alice.token, `/v1/chunk/get?chunk_id=${id}`);
    expect(stored.data!.content_with_weight).toBe(
      'Question: How long do batteries last?\tAnswer: About ten years with care.',
    );
    const byQuestion = await post<Listed>(server, alice.token, '/v1/chunk/list', {
      doc_id: doc,
      keywords: 'batteries',
    });
    expect(byQuestion.data!.total).toBe(1);
    const byAnswer = await post<Listed>(server, alice.token, '/v1/chunk/list', {
      doc_id: doc,
      keywords: 'care',
    });
    expect(byAnswer.data!.total).toBe(0);
    const name = standinEmbedding('faq.txt', DIM);
    const q = standinEmbedding('How long do batteries last?', DIM);
    expect(
      cosine(
        (await vectorOf(id))!,
        name.map((x, i) => 0.1 * x + 0.9 * q[i]),
      ),
    ).toBeGreaterThan(0.9999);
    // Chinese pairs get the Chinese prefixes.
    await post(server, alice.token, '/v1/chunk/set', {
      doc_id: doc,
      chunk_id: id,
      content_with_weight: '问题：电池能用多久？\t回答：大约十年。',
    });
    const zh = await get<Record<string, unknown>>(server, alice.token, `/v1/chunk/get?chunk_id=${id}`);
    expect(zh.data!.content_with_weight).toBe('问题：电池能用多久？\t回答：大约十年。');
  });

  it('switches chunks of the document only; ids of nothing there → "Index updating failure"', async () => {
    const a = await addChunk(server, alice.token, docId, 'Switch me off please.');
    const otherDoc = await emptyDoc(server, alice.token, kbId, 'other.txt');
    const foreign = await addChunk(server, alice.token, otherDoc, 'I belong elsewhere.');
    expect(
      await post(server, alice.token, '/v1/chunk/switch', {
        doc_id: docId,
        chunk_ids: [foreign],
        available_int: 0,
      }),
    ).toMatchObject({ code: 102, message: 'Index updating failure' });
    expect(
      (await get<Record<string, unknown>>(server, alice.token, `/v1/chunk/get?chunk_id=${foreign}`)).data!
        .available_int,
    ).toBe(1);
    expect(
      await post(server, alice.token, '/v1/chunk/switch', {
        doc_id: docId,
        chunk_ids: [a],
        available_int: 2,
      }),
    ).toMatchObject({ code: 100, message: '`available_int` must be 0 or 1.' });
    expect(
      await post(server, alice.token, '/v1/chunk/switch', { doc_id: docId, chunk_ids: [a] }),
    ).toMatchObject({ code: 101, message: 'required argument are missing: available_int; ' });
    expect(
      await post(server, bob.token, '/v1/chunk/switch', { doc_id: docId, chunk_ids: [a], available_int: 0 }),
    ).toMatchObject({ code: 109 });
    expect(
      (await get<Record<string, unknown>>(server, alice.token, `/v1/chunk/get?chunk_id=${a}`)).data!
        .available_int,
    ).toBe(1);
    expect(
      await post(server, alice.token, '/v1/chunk/switch', {
        doc_id: docId,
        chunk_ids: [a],
        available_int: 0,
      }),
    ).toMatchObject({ code: 0, data: true });
    expect(
      (await get<Record<string, unknown>>(server, alice.token, `/v1/chunk/get?chunk_id=${a}`)).data!
        .available_int,
    ).toBe(0);
    expect(
      await post(server, alice.token, '/v1/chunk/switch', {
        doc_id: docId,
        chunk_ids: [a],
        available_int: '1',
      }),
    ).toMatchObject({ code: 0, data: true });
    expect(
      (await get<Record<string, unknown>>(server, alice.token, `/v1/chunk/get?chunk_id=${a}`)).data!
        .available_int,
    ).toBe(1);
  });

  it('removes chunks and their counts; ids not in the document → "Index updating failure", nothing changed', async () => {
    const a = await addChunk(server, alice.token, docId, 'Remove me first.');
    const b = await addChunk(server, alice.token, docId, 'Remove me second, with more words in it.');
    const otherDoc = await emptyDoc(server, alice.token, kbId, 'keep.txt');
    const keep = await addChunk(server, alice.token, otherDoc, 'Keep me.');
    const before = await counters(server, docId);
    expect(
      await post(server, alice.token, '/v1/chunk/rm', {
        doc_id: docId,
        chunk_ids: [keep, '0123456789abcdef'],
      }),
    ).toMatchObject({ code: 102, message: 'Index updating failure' });
    expect(await post(server, bob.token, '/v1/chunk/rm', { doc_id: docId, chunk_ids: [a] })).toMatchObject({
      code: 109,
    });
    expect(await post(server, alice.token, '/v1/chunk/rm', { doc_id: docId })).toMatchObject({
      code: 101,
      message: 'required argument are missing: chunk_ids; ',
    });
    expect(await counters(server, docId)).toEqual(before);
    expect((await get(server, alice.token, `/v1/chunk/get?chunk_id=${keep}`)).code).toBe(0);

    const res = await post(server, alice.token, '/v1/chunk/rm', { doc_id: docId, chunk_ids: [a, b, keep] });
    expect(res).toEqual({ code: 0, message: 'success', data: true });
    const tokens = countTokens('Remove me first.') + countTokens('Remove me second, with more words in it.');
    const after = await counters(server, docId);
    expect(after.doc).toEqual({ chunks: before.doc.chunks - 2, tokens: before.doc.tokens - tokens });
    expect(after.kb).toEqual({ chunks: before.kb.chunks - 2, tokens: before.kb.tokens - tokens });
    expect(await get(server, alice.token, `/v1/chunk/get?chunk_id=${a}`)).toMatchObject({
      code: 102,
      message: 'Chunk not found!',
    });
    expect((await get(server, alice.token, `/v1/chunk/get?chunk_id=${keep}`)).code).toBe(0);
    // The document's counters equal what the index holds.
    const index = server.ctx.chunkIndex;
    expect(after.doc.chunks).toBe(await index.countByDoc(docId));
    expect(after.doc.tokens).toBe((await index.statsByDocs([docId])).get(docId)!.tokens);
  });
});

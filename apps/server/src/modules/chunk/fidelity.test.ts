import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../../../test/harness.js';
import { createKb } from '../kb/test-support.js';
import {
  addChunk,
  counters,
  emptyDoc,
  get,
  post,
  startChunkFixture,
  type ChunkFixture,
  type Listed,
} from './test-support.js';

/** Behaviours existing clients of the chunk routes rely on (issue 12 item 1, API.md §7). */
describe('chunk routes: contract fidelity', () => {
  let server: TestServer;
  let alice: TestUser;
  let fixture: ChunkFixture;
  let kbId: string;

  beforeAll(async () => {
    fixture = await startChunkFixture();
    ({ server, alice } = fixture);
    kbId = await createKb(server, alice.token, { name: 'Fidelity', embd_id: '' });
  });
  afterAll(async () => fixture.close());

  it('stores important_kwd and question_kwd as given, empty strings included', async () => {
    const docId = await emptyDoc(server, alice.token, kbId, 'kw.txt');
    const id = await addChunk(server, alice.token, docId, 'Keywords as sent.', {
      important_kwd: [''],
      question_kwd: ['', ' why? '],
    });
    const got = await get<Record<string, unknown>>(server, alice.token, `/v1/chunk/get?chunk_id=${id}`);
    expect(got.data).toMatchObject({ important_kwd: [''], question_kwd: ['', ' why? '] });
    const set = await post(server, alice.token, '/v1/chunk/set', {
      doc_id: docId,
      chunk_id: id,
      content_with_weight: 'Keywords as sent.',
      important_kwd: ['', 'a'],
      question_kwd: [''],
    });
    expect(set.code).toBe(0);
    const again = await get<Record<string, unknown>>(server, alice.token, `/v1/chunk/get?chunk_id=${id}`);
    expect(again.data).toMatchObject({ important_kwd: ['', 'a'], question_kwd: [''] });
  });

  it('chunk/list with size=0 uses the default page size (30)', async () => {
    const docId = await emptyDoc(server, alice.token, kbId, 'many.txt');
    for (let i = 0; i < 32; i++) await addChunk(server, alice.token, docId, `Line number ${i} of many.`);
    const res = await post<Listed>(server, alice.token, '/v1/chunk/list', { doc_id: docId, size: 0 });
    expect(res.code).toBe(0);
    expect(res.data!.total).toBe(32);
    expect(res.data!.chunks).toHaveLength(30);
  });

  it('keyword search matches single-character and digit tokens', async () => {
    const docId = await emptyDoc(server, alice.token, kbId, 'digits.txt');
    await addChunk(server, alice.token, docId, 'chunk test 1');
    await addChunk(server, alice.token, docId, 'chunk test 2');
    await addChunk(server, alice.token, docId, 'plan b is x');
    const search = async (keywords: string) =>
      (
        await post<Listed>(server, alice.token, '/v1/chunk/list', { doc_id: docId, keywords })
      ).data!.chunks.map((c) => c.content_with_weight);
    // The listing highlights the matched token.
    expect(await search('1')).toEqual(['chunk test <em>1</em>']);
    expect(await search('x')).toEqual(['plan b is <em>x</em>']);
  });

  it('chunk/rm with a mix of valid and unknown ids removes the valid ones and succeeds', async () => {
    const docId = await emptyDoc(server, alice.token, kbId, 'rm.txt');
    const a = await addChunk(server, alice.token, docId, 'remove me');
    const b = await addChunk(server, alice.token, docId, 'keep me');
    const res = await post(server, alice.token, '/v1/chunk/rm', {
      doc_id: docId,
      chunk_ids: [a, 'ffffffffffffffff', 'unknown'],
    });
    expect(res).toEqual({ code: 0, message: 'success', data: true });
    const list = await post<Listed>(server, alice.token, '/v1/chunk/list', { doc_id: docId });
    expect(list.data!.chunks.map((c) => c.chunk_id)).toEqual([b]);
    expect((await counters(server, docId)).doc.chunks).toBe(1);
  });

  it('keeps chunk_num exact when 31 chunks are created concurrently', async () => {
    const kb = await createKb(server, alice.token, { name: 'Concurrent', embd_id: '' });
    const docId = await emptyDoc(server, alice.token, kb, 'burst.txt');
    const answers = await Promise.all(
      Array.from({ length: 31 }, (_, i) =>
        post(server, alice.token, '/v1/chunk/create', {
          doc_id: docId,
          content_with_weight: `concurrent chunk ${i}`,
        }),
      ),
    );
    expect(answers.every((a) => a.code === 0)).toBe(true);
    const after = await counters(server, docId);
    expect(after.doc.chunks).toBe(31);
    expect(after.kb.chunks).toBe(31);
  });
});

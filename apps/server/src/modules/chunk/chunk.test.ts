import { xxh64 } from '@node-rs/xxhash';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUser, type TestServer, type TestUser } from '../../../test/harness.js';
import { standinEmbedding } from '../../../test/standins/index.js';
import { countTokens } from '../../ingest/tokens.js';
import { cosine } from '../../search/scoring.js';
import { createKb, joinTeam } from '../kb/test-support.js';
import {
  addChunk,
  counters,
  emptyDoc,
  get,
  post,
  retrieval,
  FIXTURE_DIM,
  startChunkFixture,
  type ChunkFixture,
  type Listed,
} from './test-support.js';

const DIM = FIXTURE_DIM;

describe('chunk endpoints (API.md §7)', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let kbId: string;
  let docId: string;
  let fixture: ChunkFixture;

  beforeAll(async () => {
    fixture = await startChunkFixture();
    ({ server, alice, bob, kbId, docId } = fixture);
  });
  afterAll(async () => fixture.close());

  const vectorOf = async (id: string) => (await server.ctx.chunkIndex.get(id))!.vector;

  it('creates a chunk: 16-hex content hash id, embedded 0.1·name + 0.9·content, counters +1 and + tokens', async () => {
    const before = await counters(server, docId);
    const content = 'Photovoltaic panels convert sunlight into electricity.';
    const res = await post<{ chunk_id: string }>(server, alice.token, '/v1/chunk/create', {
      doc_id: docId,
      content_with_weight: content,
      important_kwd: ['solar'],
    });
    expect(res).toEqual({
      code: 0,
      message: 'success',
      data: {
        chunk_id: xxh64(content + docId)
          .toString(16)
          .padStart(16, '0'),
      },
    });
    const id = res.data!.chunk_id;
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    const after = await counters(server, docId);
    const tokens = countTokens(content);
    expect(after.doc).toEqual({ chunks: before.doc.chunks + 1, tokens: before.doc.tokens + tokens });
    expect(after.kb).toEqual({ chunks: before.kb.chunks + 1, tokens: before.kb.tokens + tokens });
    const name = standinEmbedding('notes.txt', DIM);
    const body = standinEmbedding(content, DIM);
    expect(
      cosine(
        (await vectorOf(id))!,
        name.map((x, i) => 0.1 * x + 0.9 * body[i]),
      ),
    ).toBeGreaterThan(0.9999);

    // The same content again is the same chunk: replaced, not counted twice.
    await addChunk(server, alice.token, docId, content);
    expect(await counters(server, docId)).toEqual(after);
  });

  it('refuses bad create input with the contract messages and changes nothing', async () => {
    const before = await counters(server, docId);
    const create = (body: Record<string, unknown>, token = alice.token) =>
      post(server, token, '/v1/chunk/create', body);
    expect(await create({})).toMatchObject({
      code: 101,
      message: 'required argument are missing: doc_id,content_with_weight; ',
    });
    expect(await create({ doc_id: docId, content_with_weight: 5 })).toMatchObject({
      code: 100,
      message: '`content_with_weight` must be a string.',
    });
    expect(await create({ doc_id: docId, content_with_weight: 'x y', important_kwd: 'a' })).toMatchObject({
      code: 102,
      message: '`important_kwd` is required to be a list',
    });
    expect(await create({ doc_id: docId, content_with_weight: 'x y', question_kwd: 'q' })).toMatchObject({
      code: 102,
      message: '`question_kwd` is required to be a list',
    });
    expect(await create({ doc_id: docId, content_with_weight: 'x y', question_kwd: [1] })).toMatchObject({
      code: 100,
      message: '`question_kwd` items must be strings.',
    });
    expect(await create({ doc_id: 'f'.repeat(32), content_with_weight: 'x y' })).toMatchObject({
      code: 102,
      message: 'Document not found!',
    });
    expect(await create({ doc_id: docId, content_with_weight: 'bob was here' }, bob.token)).toMatchObject({
      code: 109,
      message: 'No authorization.',
    });
    expect(await counters(server, docId)).toEqual(before);
  });

  it('lists a document: reading order (newest first without positions), paging, total, doc object', async () => {
    const kb = await createKb(server, alice.token, { name: 'Listing', embd_id: '' });
    const doc = await emptyDoc(server, alice.token, kb, 'list.txt');
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) {
      ids.push(await addChunk(server, alice.token, doc, `chunk test ${i}`));
      await new Promise((r) => setTimeout(r, 3)); // distinct create times
    }
    const page1 = await post<Listed>(server, alice.token, '/v1/chunk/list', { doc_id: doc, size: 2 });
    expect(page1.code).toBe(0);
    expect(page1.data!.total).toBe(5);
    expect(page1.data!.chunks.map((c) => c.chunk_id)).toEqual([ids[4], ids[3]]);
    expect(page1.data!.doc).toMatchObject({
      id: doc,
      name: 'list.txt',
      kb_id: kb,
      type: 'virtual',
      chunk_num: 5,
    });
    const page3 = await post<Listed>(server, alice.token, '/v1/chunk/list', {
      doc_id: doc,
      size: 2,
      page: 3,
    });
    expect(page3.data!.chunks.map((c) => c.chunk_id)).toEqual([ids[0]]);
    const row = page3.data!.chunks[0];
    expect(Object.keys(row).sort()).toEqual(
      [
        'chunk_id',
        'content_with_weight',
        'doc_id',
        'docnm_kwd',
        'important_kwd',
        'question_kwd',
        'image_id',
        'available_int',
        'positions',
        'doc_type_kwd',
        'tag_kwd',
        'tag_feas',
      ].sort(),
    );
    expect(row).toMatchObject({
      content_with_weight: 'chunk test 1',
      doc_id: doc,
      docnm_kwd: 'list.txt',
      image_id: '',
      available_int: 1,
      positions: [],
    });
    // Bad paging values are clean 100s.
    expect(await post(server, alice.token, '/v1/chunk/list', { doc_id: doc, page: 0 })).toMatchObject({
      code: 100,
      message: '`page` must be greater than 0.',
    });
    expect(await post(server, alice.token, '/v1/chunk/list', { doc_id: doc, size: 'many' })).toMatchObject({
      code: 100,
      message: '`size` must be an integer.',
    });
    expect(
      await post(server, alice.token, '/v1/chunk/list', { doc_id: doc, available_int: 7 }),
    ).toMatchObject({ code: 100, message: '`available_int` must be 0 or 1.' });
    expect(await post(server, alice.token, '/v1/chunk/list', {})).toMatchObject({
      code: 101,
      message: 'required argument are missing: doc_id; ',
    });
    expect(await post(server, bob.token, '/v1/chunk/list', { doc_id: doc })).toMatchObject({
      code: 109,
      message: 'No authorization.',
    });
    expect(await post(server, alice.token, '/v1/chunk/list', { doc_id: 'e'.repeat(32) })).toMatchObject({
      code: 102,
      message: 'Document not found!',
    });
  });

  it('searches a document by keywords with <em> highlights and filters enabled / disabled', async () => {
    const kb = await createKb(server, alice.token, { name: 'Search', embd_id: '' });
    const doc = await emptyDoc(server, alice.token, kb, 'energy.txt');
    const battery = await addChunk(server, alice.token, doc, 'Batteries keep the energy for the night.');
    const wind = await addChunk(server, alice.token, doc, 'Wind turbines turn moving air into power.');
    await addChunk(server, alice.token, doc, 'Lithium battery cells last for thousands of cycles.');
    const found = await post<Listed>(server, alice.token, '/v1/chunk/list', {
      doc_id: doc,
      keywords: 'battery',
    });
    expect(found.data!.total).toBe(2);
    const texts = found.data!.chunks.map((c) => c.content_with_weight).sort();
    expect(texts).toEqual([
      '<em>Batteries</em> keep the energy for the night.',
      'Lithium <em>battery</em> cells last for thousands of cycles.',
    ]);
    expect(
      await post<Listed>(server, alice.token, '/v1/chunk/list', { doc_id: doc, keywords: 'hydrogen' }),
    ).toMatchObject({ code: 0, data: { total: 0, chunks: [] } });

    expect(
      await post(server, alice.token, '/v1/chunk/switch', {
        doc_id: doc,
        chunk_ids: [battery, wind],
        available_int: 0,
      }),
    ).toEqual({ code: 0, message: 'success', data: true });
    const disabled = await post<Listed>(server, alice.token, '/v1/chunk/list', {
      doc_id: doc,
      available_int: 0,
    });
    expect(disabled.data!.chunks.map((c) => c.chunk_id).sort()).toEqual([battery, wind].sort());
    expect(disabled.data!.chunks.every((c) => c.available_int === 0)).toBe(true);
    const enabled = await post<Listed>(server, alice.token, '/v1/chunk/list', {
      doc_id: doc,
      available_int: '1',
    });
    expect(enabled.data!.total).toBe(1);
    const all = await post<Listed>(server, alice.token, '/v1/chunk/list', { doc_id: doc });
    expect(all.data!.total).toBe(3);
    const disabledHits = await post<Listed>(server, alice.token, '/v1/chunk/list', {
      doc_id: doc,
      keywords: 'battery',
      available_int: 0,
    });
    expect(disabledHits.data!.chunks.map((c) => c.chunk_id)).toEqual([battery]);
    // Retrieval never sees disabled chunks.
    const hits = await retrieval(server, alice.token, { kb_id: kb, question: 'battery' });
    expect(hits.data!.chunks.map((c) => c.content_with_weight)).toEqual([
      'Lithium battery cells last for thousands of cycles.',
    ]);
  });

  it('gets a stored chunk without vectors or token fields', async () => {
    const id = await addChunk(
      server,
      alice.token,
      docId,
      'Inverters turn direct current into alternating current.',
      {
        important_kwd: ['inverter'],
        question_kwd: ['What does an inverter do?'],
        tag_kwd: ['power'],
        tag_feas: { power: 2 },
      },
    );
    const res = await get<Record<string, unknown>>(server, alice.token, `/v1/chunk/get?chunk_id=${id}`);
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({
      id,
      doc_id: docId,
      kb_id: kbId,
      docnm_kwd: 'notes.txt',
      content_with_weight: 'Inverters turn direct current into alternating current.',
      important_kwd: ['inverter'],
      question_kwd: ['What does an inverter do?'],
      tag_kwd: ['power'],
      tag_feas: { power: 2 },
      img_id: '',
      position_int: [],
      page_num_int: [],
      top_int: [],
      available_int: 1,
    });
    expect(res.data!.create_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(typeof res.data!.create_timestamp_flt).toBe('number');
    expect(
      Object.keys(res.data!).filter((k) => /_vec$|_tks$|_ltks$|_sm_|^vector$|^token_num$/.test(k)),
    ).toEqual([]);
    expect(await get(server, alice.token, '/v1/chunk/get?chunk_id=0123456789abcdef')).toMatchObject({
      code: 102,
      message: 'Chunk not found!',
    });
    expect(await get(server, bob.token, `/v1/chunk/get?chunk_id=${id}`)).toMatchObject({
      code: 109,
      message: 'No authorization.',
    });
    expect(await get(server, alice.token, '/v1/chunk/get')).toMatchObject({
      code: 101,
      message: 'required argument are missing: chunk_id; ',
    });
  });

  it('team members reach the chunks of team-shared KBs only (API.md §1.6)', async () => {
    const carol = await newUser(server, 'carol');
    await joinTeam(server, carol.id, alice.id, 'normal');
    const shared = await createKb(server, alice.token, { name: 'Shared', embd_id: '', permission: 'team' });
    const sharedDoc = await emptyDoc(server, alice.token, shared, 'shared.txt');
    await addChunk(server, alice.token, sharedDoc, 'Team notes about tidal power.');
    const listed = await post<Listed>(server, carol.token, '/v1/chunk/list', { doc_id: sharedDoc });
    expect(listed.data!.total).toBe(1);
    expect((await retrieval(server, carol.token, { kb_id: shared, question: 'tidal' })).data!.total).toBe(1);
    // Alice's private KB stays closed to her team.
    expect(await post(server, carol.token, '/v1/chunk/list', { doc_id: docId })).toMatchObject({ code: 109 });
    expect(await retrieval(server, carol.token, { kb_id: kbId, question: 'solar' })).toMatchObject({
      code: 103,
      message: 'Only owner of dataset authorized for this operation.',
    });
  });

  it('answers an empty knowledge graph for a document', async () => {
    expect(await get(server, alice.token, `/v1/chunk/knowledge_graph?doc_id=${docId}`)).toEqual({
      code: 0,
      message: 'success',
      data: { graph: {}, mind_map: {} },
    });
    expect(await get(server, bob.token, `/v1/chunk/knowledge_graph?doc_id=${docId}`)).toMatchObject({
      code: 109,
    });
  });
});

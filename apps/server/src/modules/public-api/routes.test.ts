import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAIStandin, type Standin } from '../../../test/standins/index.js';
import { parseSse } from '../../chat/sse.js';
import { wireModels } from '../../chat/test-fixtures.js';
import { api, apiKeyOf, uploadFiles } from './test-support.js';

/** Each `/api/v1` route: happy path, bad input, and another tenant's key (API.md §17). */
describe('/api/v1 routes', () => {
  let server: TestServer;
  let llm: Standin;
  let alice: TestUser;
  let bob: TestUser;
  let key: string;
  let bobKey: string;
  let datasetId: string;
  let docId: string;
  beforeAll(async () => {
    llm = await startOpenAIStandin({ embeddingDim: 16 });
    server = await startTestServer();
    alice = await newUser(server, 'alice');
    bob = await newUser(server, 'bob');
    await wireModels(server, alice, llm, { tts: true });
    key = await apiKeyOf(server, alice);
    bobKey = await apiKeyOf(server, bob);
    datasetId = (await api<{ id: string }>(server, key, 'POST', '/api/v1/datasets', { name: 'Main' })).data!
      .id;
    docId = (await uploadFiles(server, key, datasetId, [{ name: 'a.txt', data: 'alpha beta' }])).data![0].id;
  });
  afterAll(async () => {
    await server.close();
    await llm.close();
  });

  it('answers the Authorization header errors exactly as §17 says', async () => {
    expect(await api(server, null, 'GET', '/api/v1/datasets')).toEqual({
      code: 0,
      data: false,
      message: "`Authorization` can't be empty",
    });
    const onePart = await call(server, '/api/v1/datasets', { headers: { Authorization: key } });
    expect(onePart.body).toEqual({
      code: 0,
      data: false,
      message: 'Please check your authorization format.',
    });
    expect(await api(server, 'lectern-unknown', 'GET', '/api/v1/datasets')).toEqual({
      code: 109,
      data: false,
      message: 'Authentication error: API key is invalid!',
    });
    // A session token is not an API key.
    expect((await api(server, `Bearer ${alice.token}`, 'GET', '/api/v1/datasets')).code).toBe(109);
  });

  it('datasets: create (renamed fields), list, update, delete; other tenants see nothing', async () => {
    const bad = await api(server, key, 'POST', '/api/v1/datasets', {});
    expect(bad).toMatchObject({ code: 101, message: 'required argument are missing: name; ' });
    const made = await api<Record<string, unknown>>(server, key, 'POST', '/api/v1/datasets', {
      name: 'Second',
      parser_config: { chunk_token_num: 256 },
    });
    expect(made.data).toMatchObject({
      name: 'Second',
      chunk_method: 'naive',
      chunk_count: 0,
      document_count: 0,
    });
    expect(made.data).not.toHaveProperty('kb_id');
    const id = made.data!.id as string;
    const list = await api<Array<{ id: string }>>(server, key, 'GET', '/api/v1/datasets?page=1&page_size=10');
    expect(list.data!.map((d) => d.id).sort()).toEqual([datasetId, id].sort());
    expect((await api<unknown[]>(server, bobKey, 'GET', '/api/v1/datasets')).data).toEqual([]);
    const upd = await api<Record<string, unknown>>(server, key, 'PUT', `/api/v1/datasets/${id}`, {
      name: 'Renamed',
      parser_config: { delimiter: '\n' },
    });
    expect(upd.data).toMatchObject({ name: 'Renamed', parser_config: { delimiter: '\n' } });
    expect((await api(server, bobKey, 'PUT', `/api/v1/datasets/${id}`, { name: 'x' })).code).toBe(109);
    expect((await api(server, bobKey, 'DELETE', '/api/v1/datasets', { ids: [id] })).code).toBe(109);
    expect(await api(server, key, 'DELETE', '/api/v1/datasets', { ids: [id] })).toEqual({
      code: 0,
      data: null,
    });
    expect((await api(server, key, 'GET', `/api/v1/datasets?id=${id}`)).code).toBe(102);
  });

  it('documents: list, update, download, delete', async () => {
    const list = await api<{ docs: Array<Record<string, unknown>>; total: number }>(
      server,
      key,
      'GET',
      `/api/v1/datasets/${datasetId}/documents`,
    );
    expect(list.data!.total).toBe(1);
    expect(list.data!.docs[0]).toMatchObject({
      id: docId,
      dataset_id: datasetId,
      run: 'UNSTART',
      chunk_count: 0,
    });
    const upd = await api<Record<string, unknown>>(
      server,
      key,
      'PUT',
      `/api/v1/datasets/${datasetId}/documents/${docId}`,
      { name: 'renamed.txt', meta_fields: { author: 'Ann' }, enabled: false },
    );
    expect(upd.code, upd.message).toBe(0);
    expect(upd.data).toMatchObject({ name: 'renamed.txt', meta_fields: { author: 'Ann' }, status: '0' });
    const file = await fetch(`${server.url}/api/v1/datasets/${datasetId}/documents/${docId}`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(await file.text()).toBe('alpha beta');
    expect((await api(server, bobKey, 'GET', `/api/v1/datasets/${datasetId}/documents/${docId}`)).code).toBe(
      109,
    );
    const extra = (await uploadFiles(server, key, datasetId, [{ name: 'gone.txt', data: 'bye' }])).data![0]
      .id;
    expect(
      (await api(server, bobKey, 'DELETE', `/api/v1/datasets/${datasetId}/documents`, { ids: [extra] })).code,
    ).toBe(109);
    expect(
      await api(server, key, 'DELETE', `/api/v1/datasets/${datasetId}/documents`, { ids: [extra] }),
    ).toEqual({
      code: 0,
      data: null,
    });
    // Parse stop on a document that is not running is refused by the same rule as /v1.
    const stop = await api(server, key, 'DELETE', `/api/v1/datasets/${datasetId}/chunks`, {
      document_ids: [docId],
    });
    expect(stop.code).toBe(102);
  });

  it('chunks: add (as given), list, update, delete', async () => {
    const base = `/api/v1/datasets/${datasetId}/documents/${docId}/chunks`;
    expect((await api(server, key, 'POST', base, {})).code).toBe(101);
    const added = await api<{ chunk: Record<string, unknown> }>(server, key, 'POST', base, {
      content: 'Manual chunk about turbines',
      important_keywords: ['turbine'],
      questions: [''],
    });
    expect(added.code, added.message).toBe(0);
    expect(added.data!.chunk).toMatchObject({
      content: 'Manual chunk about turbines',
      important_keywords: ['turbine'],
      questions: [''],
      document_id: docId,
    });
    const chunkId = added.data!.chunk.id as string;
    const list = await api<{ chunks: Array<{ id: string }>; total: number }>(server, key, 'GET', base);
    expect(list.data!.chunks.map((c) => c.id)).toContain(chunkId);
    expect(
      await api(server, key, 'PUT', `${base}/${chunkId}`, { content: 'Edited chunk', available: false }),
    ).toEqual({ code: 0, data: null });
    expect(await server.ctx.chunkIndex.get(chunkId)).toMatchObject({
      content_with_weight: 'Edited chunk',
      available_int: 0,
    });
    expect((await api(server, bobKey, 'DELETE', base, { chunk_ids: [chunkId] })).code).toBe(109);
    expect(await api(server, key, 'DELETE', base, { chunk_ids: [chunkId] })).toEqual({ code: 0, data: null });
    expect(await server.ctx.chunkIndex.get(chunkId)).toBeNull();
  });

  it('retrieval refuses other tenants and empty dataset lists', async () => {
    expect((await api(server, key, 'POST', '/api/v1/retrieval', { question: 'x' })).code).toBe(102);
    const foreign = await api(server, bobKey, 'POST', '/api/v1/retrieval', {
      question: 'x',
      dataset_ids: [datasetId],
    });
    expect(foreign).toMatchObject({ code: 103 });
  });

  it('chats, sessions and completions (SSE and one answer)', async () => {
    const chat = await api<Record<string, unknown>>(server, key, 'POST', '/api/v1/chats', {
      name: 'Helper',
      llm: { temperature: 0.2 },
      prompt: { opener: 'Hello!', keywords_similarity_weight: 0.6 },
    });
    expect(chat.code, chat.message).toBe(0);
    expect(chat.data).toMatchObject({
      name: 'Helper',
      llm: { temperature: 0.2 },
      prompt: { opener: 'Hello!' },
    });
    expect(
      (chat.data!.prompt as { keywords_similarity_weight: number }).keywords_similarity_weight,
    ).toBeCloseTo(0.6);
    const chatId = chat.data!.id as string;
    expect((await api<unknown[]>(server, key, 'GET', '/api/v1/chats')).data!.length).toBe(1);
    expect(await api(server, key, 'PUT', `/api/v1/chats/${chatId}`, { name: 'Helper 2' })).toEqual({
      code: 0,
      data: null,
    });
    expect((await api(server, bobKey, 'PUT', `/api/v1/chats/${chatId}`, { name: 'x' })).message).toBe(
      `You don't own the chat ${chatId}`,
    );
    const session = await api<{ id: string; messages: unknown[] }>(
      server,
      key,
      'POST',
      `/api/v1/chats/${chatId}/sessions`,
      {
        name: 's1',
      },
    );
    expect(session.data!.messages).toEqual([{ role: 'assistant', content: 'Hello!' }]);
    const plain = await api<{ answer: string; session_id: string }>(
      server,
      key,
      'POST',
      `/api/v1/chats/${chatId}/completions`,
      { question: 'What is up?', session_id: session.data!.id, stream: false },
    );
    expect(plain.code, plain.message).toBe(0);
    expect(plain.data!.answer).toContain('What is up?');
    const res = await fetch(`${server.url}/api/v1/chats/${chatId}/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ question: 'And now?', session_id: session.data!.id }),
    });
    const events = parseSse(await res.text()) as Array<{ code: number; data: unknown }>;
    expect(events[events.length - 1]).toEqual({ code: 0, message: '', data: true });
    const sessions = await api<Array<{ id: string; messages: unknown[] }>>(
      server,
      key,
      'GET',
      `/api/v1/chats/${chatId}/sessions`,
    );
    expect(sessions.data![0].messages).toHaveLength(5);
    expect((await api(server, bobKey, 'GET', `/api/v1/chats/${chatId}/sessions`)).code).toBe(102);
    expect(
      await api(server, key, 'DELETE', `/api/v1/chats/${chatId}/sessions`, { ids: [session.data!.id] }),
    ).toEqual({
      code: 0,
      data: null,
    });
    expect(await api(server, key, 'DELETE', '/api/v1/chats', { ids: [chatId] })).toEqual({
      code: 0,
      data: null,
    });
  });

  it('OpenAI-compatible route: its own errors, and foreign chats', async () => {
    const chat = await api<{ id: string }>(server, key, 'POST', '/api/v1/chats', { name: 'O' });
    const route = `/api/v1/chats_openai/${chat.data!.id}/chat/completions`;
    expect(await api(server, key, 'POST', route, { messages: [] })).toMatchObject({
      code: 102,
      message: 'You have to provide messages.',
    });
    expect(
      await api(server, key, 'POST', route, { messages: [{ role: 'assistant', content: 'x' }] }),
    ).toMatchObject({
      code: 102,
      message: 'The last content of this conversation is not from user.',
    });
    expect(
      await api(server, key, 'POST', route, {
        messages: [{ role: 'user', content: 'x' }],
        extra_body: 'yes',
      }),
    ).toMatchObject({ code: 102, message: 'extra_body must be an object.' });
    expect(
      await api(server, bobKey, 'POST', route, { messages: [{ role: 'user', content: 'x' }] }),
    ).toMatchObject({
      code: 102,
      message: `You don't own the chat ${chat.data!.id}`,
    });
    expect(await api(server, 'lectern-nope', 'POST', route, { messages: [] })).toMatchObject({ code: 109 });
  });

  it('tts and sequence2txt use the tenant models', async () => {
    const res = await fetch(`${server.url}/api/v1/tts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'Hello world.' }),
    });
    expect(res.headers.get('content-type')).toMatch(/^audio\/mpeg/);
    expect(Buffer.from(await res.arrayBuffer()).toString()).toContain('Hello world');
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('RIFF')]), 'a.wav');
    const stt = await fetch(`${server.url}/api/v1/sequence2txt`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}` },
      body: form,
    });
    expect(await stt.json()).toMatchObject({ code: 102, message: 'No default ASR model is set' });
    expect((await call(server, '/api/v1/tts', { body: { text: 'x' } })).body).toMatchObject({
      code: 0,
      data: false,
    });
  });
});

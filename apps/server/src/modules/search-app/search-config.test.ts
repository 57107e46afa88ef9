import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/harness.js';
import type { OpenAIChatBody } from '../../../test/standins/index.js';
import { answers, postSse } from '../../chat/test-fixtures.js';
import { MODEL_B, setupSearchWorld, type SearchWorld } from './test-support.js';

/** A search app’s `search_config` driving the search, and its share page (`/api/v1/searchbots`, beta token). */

let w: SearchWorld;

beforeAll(async () => {
  w = await setupSearchWorld();
});

afterAll(async () => {
  await w?.close();
});

describe('search_config drives ask, related_questions, mindmap and retrieval_test', () => {
  let appId: string;
  beforeAll(async () => {
    appId = await w.createApp(w.owner, 'Driven');
    const res = await w.update(w.owner, {
      search_id: appId,
      name: 'Driven',
      tenant_id: w.owner.id,
      search_config: {
        kb_ids: [w.kbId],
        chat_id: MODEL_B,
        llm_setting: { temperature: 0.77 },
        similarity_threshold: 0.01,
        meta_data_filter: { method: 'manual', manual: [{ key: 'inner', op: '=', value: 'yes' }] },
      },
    });
    expect(res.body.code).toBe(0);
  });

  it('ask answers with the app’s model, settings and knowledge bases (none in the request)', async () => {
    w.llmB.requests.length = 0;
    w.replyB = () => 'Mars is the fourth planet.';
    const r = await postSse(
      w.server,
      '/v1/conversation/ask',
      { question: 'planet', kb_ids: [], search_id: appId },
      w.owner.token,
    );
    const events = answers(r);
    expect(
      events
        .filter((e) => !e.final)
        .map((e) => e.answer)
        .join(''),
    ).toBe('Mars is the fourth planet.');
    // The metadata filter keeps the inner planet's document only.
    const final = events[events.length - 1];
    expect(final.reference.chunks.map((c) => c.document_id)).toEqual([w.marsDoc]);
    const sent = w.llmB.modelCalls().at(-1)!.body as OpenAIChatBody & { temperature?: number };
    expect(sent.temperature).toBe(0.77);
    expect(JSON.stringify(sent.messages)).toContain('fourth planet from the Sun');
    expect(JSON.stringify(sent.messages)).not.toContain('gas giant');
  });

  it('ask without the app searches both documents with the default model', async () => {
    w.reply = () => 'Both.';
    const r = await postSse(
      w.server,
      '/v1/conversation/ask',
      { question: 'planet', kb_ids: [w.kbId] },
      w.owner.token,
    );
    const final = answers(r).at(-1)!;
    expect(new Set(final.reference.chunks.map((c) => c.document_id))).toEqual(
      new Set([w.marsDoc, w.jupiterDoc]),
    );
  });

  it('a foreign search_id is refused: error event for ask, 109 for the others', async () => {
    const r = await postSse(
      w.server,
      '/v1/conversation/ask',
      { question: 'planet', kb_ids: [], search_id: appId },
      w.stranger.token,
    );
    expect(r.events[0]).toMatchObject({ code: 500, message: 'No authorization.' });
    const related = await call(w.server, '/v1/conversation/related_questions', {
      token: w.stranger.token,
      body: { question: 'planet', search_id: appId },
    });
    expect(related.body).toMatchObject({ code: 109, message: 'No authorization.' });
    const map = await call(w.server, '/v1/conversation/mindmap', {
      token: w.stranger.token,
      body: { question: 'planet', kb_ids: [], search_id: appId },
    });
    expect(map.body.code).toBe(109);
  });

  it('related_questions and mindmap use the app’s chat model', async () => {
    w.replyB = () => '1. moons of mars\n2. red planet';
    const related = await call<string[]>(w.server, '/v1/conversation/related_questions', {
      token: w.member.token,
      body: { question: 'mars', search_id: appId },
    });
    expect(related.body).toMatchObject({ code: 0, data: ['moons of mars', 'red planet'] });
    w.replyB = () => '# Mars\n## Facts\n- fourth planet';
    const map = await call(w.server, '/v1/conversation/mindmap', {
      token: w.owner.token,
      body: { question: 'planet', kb_ids: [], search_id: appId },
    });
    expect(map.body).toMatchObject({ code: 0, data: { id: 'Mars', children: [{ id: 'Facts' }] } });
    expect(JSON.stringify(w.llmB.modelCalls().at(-1)!.body)).not.toContain('gas giant');
  });

  it('retrieval_test takes the app’s knowledge bases and filter', async () => {
    const res = await call<{ chunks: Array<{ doc_id: string }> }>(w.server, '/v1/chunk/retrieval_test', {
      token: w.owner.token,
      body: { kb_id: [], question: 'planet', search_id: appId },
    });
    expect(res.body.code).toBe(0);
    expect(res.body.data!.chunks.map((c) => c.doc_id)).toEqual([w.marsDoc]);
  });
});

describe('/api/v1/searchbots (share page, beta token)', () => {
  let appId: string;
  let beta: string;
  const auth = () => ({ Authorization: `Bearer ${beta}` });
  beforeAll(async () => {
    appId = await w.createApp(w.owner, 'Shared search');
    await w.update(w.owner, {
      search_id: appId,
      name: 'Shared search',
      tenant_id: w.owner.id,
      search_config: { kb_ids: [w.kbId], doc_ids: [w.jupiterDoc], similarity_threshold: 0.01 },
    });
    const key = await call<{ beta: string }>(w.server, '/v1/system/new_token', {
      token: w.owner.token,
      body: {},
    });
    beta = key.body.data!.beta;
  });

  it('refuses a missing, one-part or unknown beta token', async () => {
    const url = `/api/v1/searchbots/detail?search_id=${appId}`;
    expect((await call(w.server, url)).body).toMatchObject({
      code: 102,
      message: 'Authorization is not valid!',
    });
    expect((await call(w.server, url, { headers: { Authorization: beta } })).body).toMatchObject({
      code: 102,
      message: 'Authorization is not valid!',
    });
    expect((await call(w.server, url, { headers: { Authorization: 'Bearer nope' } })).body).toMatchObject({
      code: 102,
      message: 'Authentication error: API key is invalid!',
    });
  });

  it('shows the app, runs ask / retrieval / related / mindmap with its config', async () => {
    const detail = await call(w.server, `/api/v1/searchbots/detail?search_id=${appId}`, { headers: auth() });
    expect(detail.body).toMatchObject({ code: 0, data: { id: appId, name: 'Shared search' } });

    w.reply = () => 'Jupiter is the largest.';
    const res = await fetch(`${w.server.url}/api/v1/searchbots/ask`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ question: 'planet', search_id: appId }),
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('"answer":"largest."');
    expect(text).toContain(w.jupiterDoc);
    expect(text).not.toContain(w.marsDoc);

    const hits = await call<{ chunks: Array<{ doc_id: string }> }>(
      w.server,
      '/api/v1/searchbots/retrieval_test',
      {
        headers: auth(),
        body: { question: 'planet', search_id: appId },
      },
    );
    expect(hits.body.code).toBe(0);
    expect(hits.body.data!.chunks.map((c) => c.doc_id)).toEqual([w.jupiterDoc]);

    w.reply = () => '1. gas giants';
    const related = await call(w.server, '/api/v1/searchbots/related_questions', {
      headers: auth(),
      body: { question: 'jupiter', search_id: appId },
    });
    expect(related.body).toMatchObject({ code: 0, data: ['gas giants'] });

    w.reply = () => '# Jupiter\n- largest';
    const map = await call(w.server, '/api/v1/searchbots/mindmap', {
      headers: auth(),
      body: { question: 'planet', search_id: appId },
    });
    expect(map.body).toMatchObject({ code: 0, data: { id: 'Jupiter' } });
  });

  it('keeps a beta token inside its tenant and checks the body', async () => {
    const key = await call<{ beta: string }>(w.server, '/v1/system/new_token', {
      token: w.stranger.token,
      body: {},
    });
    const foreign = { Authorization: `Bearer ${key.body.data!.beta}` };
    const detail = await call(w.server, `/api/v1/searchbots/detail?search_id=${appId}`, { headers: foreign });
    expect(detail.body).toMatchObject({ code: 103, message: 'Has no permission for this operation.' });
    const related = await call(w.server, '/api/v1/searchbots/related_questions', {
      headers: foreign,
      body: { question: 'x', search_id: appId },
    });
    expect(related.body).toMatchObject({ code: 109, message: 'No authorization.' });
    const missing = await call(w.server, '/api/v1/searchbots/mindmap', {
      headers: auth(),
      body: { question: 'x' },
    });
    expect(missing.body).toMatchObject({ code: 101, message: 'required argument are missing: search_id; ' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAIStandin, type Standin } from '../../../test/standins/index.js';
import {
  answers,
  createConversation,
  createDialog,
  createKb,
  postSse,
  seedChunks,
  wireModels,
} from '../../chat/test-fixtures.js';

type Token = {
  token: string;
  tenant_id: string;
  dialog_id: string;
  source: string;
  beta: string;
  update_time: null;
};
type Series = Array<[string, number]>;
type Stats = { pv: Series; uv: Series; speed: Series; tokens: Series; round: Series; thumb_up: Series };

let server: TestServer;
let llm: Standin;
let owner: TestUser;
let dialogId: string;
let key: string;
let keyBeta: string;

const bearer = (k: string) => ({ Authorization: `Bearer ${k}` });

beforeAll(async () => {
  llm = await startOpenAIStandin({ reply: () => 'Oslo is the capital of Norway.' });
  server = await startTestServer({ MODEL_MAX_RETRIES: '0' });
  owner = await newUser(server, 'apiowner');
  await wireModels(server, owner, llm);
  const kb = await createKb(server, owner, 'Nordics');
  await seedChunks(server, kb, owner.id, [{ content: 'Oslo is the capital of Norway.', doc: 'norway.txt' }]);
  dialogId = (
    await createDialog(server, owner, {
      kb_ids: [kb],
      prompt_config: { system: '{knowledge}', prologue: 'Hej!' },
    })
  ).id;
});

afterAll(async () => {
  await server?.close();
  await llm?.close();
});

describe('assistant API keys', () => {
  it('creates, lists and removes keys of an assistant', async () => {
    const created = await call<Token>(server, '/v1/api/new_token', {
      token: owner.token,
      body: { dialog_id: dialogId },
    });
    expect(created.body.code).toBe(0);
    const row = created.body.data as Token;
    expect(row).toMatchObject({
      tenant_id: owner.id,
      dialog_id: dialogId,
      update_time: null,
      update_date: null,
    });
    expect(row.token).toMatch(/^lectern-/);
    key = row.token;
    keyBeta = row.beta;
    // Shown once: the list has the key's hint ("lectern-" + 4, "****", last 4), not the key.
    const hint = `${key.slice(0, 12)}****${key.slice(-4)}`;
    const list = await call<Token[]>(server, `/v1/api/token_list?dialog_id=${dialogId}`, {
      token: owner.token,
    });
    expect((list.body.data as Token[]).map((t) => t.token)).toEqual([hint]);
    expect((list.body.data as Token[])[0].beta).toBe(`${keyBeta.slice(0, 4)}****${keyBeta.slice(-4)}`);

    const extra = (
      await call<Token>(server, '/v1/api/new_token', { token: owner.token, body: { dialog_id: dialogId } })
    ).body.data as Token;
    const stranger = await newUser(server, 'stranger');
    expect(
      (
        await call(server, '/v1/api/rm', {
          token: stranger.token,
          body: { tokens: [extra.token], tenant_id: owner.id },
        })
      ).body.code,
    ).toBe(109);
    // Removed by the hint the list shows.
    const rm = await call(server, '/v1/api/rm', {
      token: owner.token,
      body: { tokens: [`${extra.token.slice(0, 12)}****${extra.token.slice(-4)}`], tenant_id: owner.id },
    });
    expect(rm.body).toEqual({ code: 0, message: 'success', data: true });
    const after = await call<Token[]>(server, `/v1/api/token_list?dialog_id=${dialogId}`, {
      token: owner.token,
    });
    expect((after.body.data as Token[]).map((t) => t.token)).toEqual([hint]);
    expect(
      (await call(server, '/v1/api/new_conversation?user_id=x', { headers: bearer(extra.token) })).body.code,
    ).toBe(109);
    // No key for somebody else's assistant.
    expect(
      (await call(server, '/v1/api/new_token', { token: stranger.token, body: { dialog_id: dialogId } }))
        .body,
    ).toMatchObject({
      code: 102,
      message: 'Dialog not found!',
    });
  });
});

describe('legacy external chat', () => {
  it('opens a session, streams an answer (doc_name chunks) and keeps the session', async () => {
    const bad = await call(server, '/v1/api/new_conversation?user_id=u1', {
      headers: bearer('lectern-nope'),
    });
    expect(bad.body).toEqual({
      code: 109,
      message: 'Authentication error: API key is invalid!',
      data: false,
    });

    const session = await call<{ id: string; dialog_id: string; user_id: string; message: unknown[] }>(
      server,
      '/v1/api/new_conversation?user_id=u1',
      {
        headers: bearer(key),
      },
    );
    expect(session.body.data).toMatchObject({
      dialog_id: dialogId,
      user_id: 'u1',
      message: [{ role: 'assistant', content: 'Hej!' }],
    });
    const sid = (session.body.data as { id: string }).id;

    const r = await postSse(
      server,
      '/v1/api/completion',
      { conversation_id: sid, quote: true, messages: [{ role: 'user', content: 'Capital of Norway?' }] },
      `Bearer ${key}`,
    );
    const events = answers(r);
    const final = events[events.length - 1];
    expect(
      events
        .filter((e) => !e.final)
        .map((e) => e.answer)
        .join(''),
    ).toBe('Oslo is the capital of Norway.');
    expect(final.reference.chunks[0]).toMatchObject({
      doc_name: 'norway.txt',
      content_with_weight: 'Oslo is the capital of Norway.',
    });
    expect(final.reference.chunks[0]).not.toHaveProperty('docnm_kwd');
    expect(r.events[r.events.length - 1]).toEqual({ code: 0, message: '', data: true });

    const stored = await call<{
      message: Array<{ role: string; content: string }>;
      reference: Array<{ chunks: unknown[] }>;
      round: number;
      tokens: number;
    }>(server, `/v1/api/conversation/${sid}`, { headers: bearer(key) });
    const data = stored.body.data!;
    expect(data.message.map((m) => m.role)).toEqual(['assistant', 'user', 'assistant']);
    expect(data.message[2].content).toMatch(/^Oslo is the capital of Norway\. \[ID:0\]$/);
    expect(data.reference[0].chunks[0]).toMatchObject({ doc_name: 'norway.txt' });
    expect(data.round).toBe(1);
    expect(data.tokens).toBeGreaterThan(0);

    const nonStream = await call<{ answer: string }>(server, '/v1/api/completion', {
      headers: bearer(key),
      body: {
        conversation_id: sid,
        stream: false,
        messages: [{ role: 'user', content: 'What is the capital of Norway again?' }],
      },
    });
    // quote defaults to false on the legacy API: no citations inserted.
    expect(nonStream.body.data?.answer).toBe('Oslo is the capital of Norway.');
  });

  it("lets the embed link's beta token open and use a session on the same assistant", async () => {
    // The beta token of the key, shown once by new_token.
    const beta = keyBeta;
    expect(beta).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const session = await call<{ id: string; dialog_id: string }>(
      server,
      '/v1/api/new_conversation?user_id=visitor',
      { headers: bearer(beta) },
    );
    expect(session.body.data).toMatchObject({ dialog_id: dialogId });
    const sid = (session.body.data as { id: string }).id;
    const r = await postSse(
      server,
      '/v1/api/completion',
      { conversation_id: sid, messages: [{ role: 'user', content: 'Capital of Norway?' }] },
      `Bearer ${beta}`,
    );
    expect(
      answers(r)
        .filter((e) => !e.final)
        .map((e) => e.answer)
        .join(''),
    ).toBe('Oslo is the capital of Norway.');
    const stored = await call<{ message: unknown[] }>(server, `/v1/api/conversation/${sid}`, {
      headers: bearer(beta),
    });
    expect((stored.body.data as { message: unknown[] }).message).toHaveLength(3);
    // A beta token is not a login: it opens no web route.
    expect((await call(server, '/v1/user/info', { headers: bearer(beta) })).status).toBe(401);
  });

  it('refuses keys of other assistants and unknown sessions', async () => {
    const otherDialog = (await createDialog(server, owner, { prompt_config: { system: 'x' } })).id;
    const otherKey = (
      (
        await call<Token>(server, '/v1/api/new_token', {
          token: owner.token,
          body: { dialog_id: otherDialog },
        })
      ).body.data as Token
    ).token;
    const sid = (
      (await call<{ id: string }>(server, '/v1/api/new_conversation?user_id=u2', { headers: bearer(key) }))
        .body.data as { id: string }
    ).id;
    expect((await call(server, `/v1/api/conversation/${sid}`, { headers: bearer(otherKey) })).body).toEqual({
      code: 109,
      message: 'Authentication error: API key is invalid for this conversation_id!',
      data: false,
    });
    expect(
      (await call(server, `/v1/api/conversation/${'9'.repeat(32)}`, { headers: bearer(key) })).body,
    ).toMatchObject({
      code: 102,
      message: 'Conversation not found!',
    });
    const completion = await call(server, '/v1/api/completion', {
      headers: bearer(key),
      body: { conversation_id: '9'.repeat(32), messages: [{ role: 'user', content: 'x' }] },
    });
    expect(completion.body).toMatchObject({ code: 102, message: 'Conversation not found!' });
  });
});

describe('GET /v1/api/stats', () => {
  it('counts sessions, users, tokens, rounds and thumbs up per day (web chats included)', async () => {
    const user = await newUser(server, 'statsowner');
    const statsLlm = await startOpenAIStandin({ reply: () => 'Fine answer.' });
    await wireModels(server, user, statsLlm);
    const d = (await createDialog(server, user, { prompt_config: { system: 'Hello.' } })).id;
    const k = (
      (await call<Token>(server, '/v1/api/new_token', { token: user.token, body: { dialog_id: d } })).body
        .data as Token
    ).token;
    for (const endUser of ['eu1', 'eu2', 'eu1']) {
      const sid = (
        (
          await call<{ id: string }>(server, `/v1/api/new_conversation?user_id=${endUser}`, {
            headers: bearer(k),
          })
        ).body.data as { id: string }
      ).id;
      await postSse(
        server,
        '/v1/api/completion',
        { conversation_id: sid, messages: [{ role: 'user', content: 'hi' }] },
        `Bearer ${k}`,
      );
    }
    // A web conversation with two rounds and a thumbs up.
    const conv = await createConversation(server, user, d);
    const q1 = [{ role: 'user', content: 'one', id: 'q1' }];
    await postSse(server, '/v1/conversation/completion', { conversation_id: conv, messages: q1 }, user.token);
    await postSse(
      server,
      '/v1/conversation/completion',
      {
        conversation_id: conv,
        messages: [
          ...q1,
          { role: 'assistant', content: 'Fine answer.', id: 'q1' },
          { role: 'user', content: 'two', id: 'q2' },
        ],
      },
      user.token,
    );
    await call(server, '/v1/conversation/thumbup', {
      token: user.token,
      body: { conversation_id: conv, message_id: 'q2', thumbup: true },
    });

    const res = await call<Stats>(server, '/v1/api/stats', { token: user.token });
    expect(res.body.code).toBe(0);
    const s = res.body.data as Stats;
    expect(s.pv).toHaveLength(1);
    const today = new Date().toUTCString().slice(0, 16);
    expect(s.pv[0][0].startsWith(today)).toBe(true);
    expect(s.pv[0][1]).toBe(4);
    expect(s.uv[0][1]).toBe(3);
    expect(s.round[0][1]).toBeCloseTo((1 + 1 + 1 + 2) / 4);
    expect(s.thumb_up[0][1]).toBe(1);
    expect(s.tokens[0][1]).toBeGreaterThan(0);
    expect(s.speed[0][1]).toBeGreaterThan(0);

    // Thumbs down takes it back; a range before today is empty.
    await call(server, '/v1/conversation/thumbup', {
      token: user.token,
      body: { conversation_id: conv, message_id: 'q2', thumbup: false },
    });
    const again = (await call<Stats>(server, '/v1/api/stats', { token: user.token })).body.data as Stats;
    expect(again.thumb_up[0][1]).toBe(0);
    const past = (
      await call<Stats>(server, '/v1/api/stats?from_date=2020-01-01&to_date=2020-01-02', {
        token: user.token,
      })
    ).body.data as Stats;
    expect(past).toEqual({ pv: [], uv: [], speed: [], tokens: [], round: [], thumb_up: [] });
    // Another tenant sees none of it.
    const other = (await call<Stats>(server, '/v1/api/stats', { token: owner.token })).body.data as Stats;
    expect(other.pv.reduce((n, [, v]) => n + v, 0)).toBeLessThan(10);
    await statsLlm.close();
  });
});

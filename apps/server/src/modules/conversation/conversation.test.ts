import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { createConversation, createDialog } from '../../chat/test-fixtures.js';

type Conv = {
  id: string;
  dialog_id: string;
  name: string;
  message: Array<Record<string, unknown>>;
  reference: unknown[];
  user_id: string;
  avatar?: string;
};

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
let dialogId: string;

beforeAll(async () => {
  server = await startTestServer();
  alice = await newUser(server, 'alice');
  bob = await newUser(server, 'bob');
  dialogId = (
    await createDialog(server, alice, {
      name: 'Helper',
      icon: 'data:image/png;base64,AAA',
      prompt_config: { system: 'Be kind.', prologue: 'Hello there!' },
    })
  ).id;
});

afterAll(async () => {
  await server.close();
});

describe('conversation CRUD', () => {
  it('creates a conversation with the client’s id and the assistant’s opening greeting', async () => {
    const id = 'a'.repeat(32);
    const res = await call<Conv>(server, '/v1/conversation/set', {
      token: alice.token,
      body: { is_new: true, conversation_id: id, dialog_id: dialogId, name: 'x'.repeat(300) },
    });
    expect(res.body.code).toBe(0);
    expect(res.body.data).toEqual({
      id,
      dialog_id: dialogId,
      name: 'x'.repeat(255),
      message: [{ role: 'assistant', content: 'Hello there!' }],
      user_id: alice.id,
      reference: [],
    });
  });

  it('refuses a new conversation on an unknown or foreign assistant', async () => {
    for (const [user, dialog] of [
      [alice, 'f'.repeat(32)],
      [bob, dialogId],
    ] as const) {
      const res = await call(server, '/v1/conversation/set', {
        token: user.token,
        body: { is_new: true, conversation_id: 'b'.repeat(32), dialog_id: dialog },
      });
      expect(res.body).toMatchObject({ code: 102, message: 'Dialog not found' });
    }
  });

  it('renames, reads (with the assistant icon as avatar) and lists newest first', async () => {
    const first = await createConversation(server, alice, dialogId);
    await new Promise((r) => setTimeout(r, 5));
    const second = await createConversation(server, alice, dialogId);
    const renamed = await call<Conv>(server, '/v1/conversation/set', {
      token: alice.token,
      body: { conversation_id: first, name: 'Renamed' },
    });
    expect(renamed.body.data).toMatchObject({ id: first, name: 'Renamed', dialog_id: dialogId });
    const got = await call<Conv>(server, `/v1/conversation/get?conversation_id=${first}`, {
      token: alice.token,
    });
    expect(got.body.data).toMatchObject({
      id: first,
      name: 'Renamed',
      avatar: 'data:image/png;base64,AAA',
      reference: [],
    });
    const list = await call<Conv[]>(server, `/v1/conversation/list?dialog_id=${dialogId}`, {
      token: alice.token,
    });
    const ids = (list.body.data as Conv[]).map((c) => c.id);
    expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first));
  });

  it('answers the contract envelopes for unknown and foreign conversations', async () => {
    const mine = await createConversation(server, alice, dialogId);
    const unknown = 'c'.repeat(32);
    expect(
      (await call(server, `/v1/conversation/get?conversation_id=${unknown}`, { token: alice.token })).body,
    ).toMatchObject({
      code: 102,
      message: 'Conversation not found!',
    });
    expect(
      (await call(server, `/v1/conversation/get?conversation_id=${mine}`, { token: bob.token })).body,
    ).toEqual({
      code: 103,
      message: 'Only owner of conversation authorized for this operation.',
      data: false,
    });
    expect(
      (await call(server, `/v1/conversation/list?dialog_id=${dialogId}`, { token: bob.token })).body,
    ).toEqual({
      code: 103,
      message: 'Only owner of dialog authorized for this operation.',
      data: false,
    });
    expect(
      (
        await call(server, '/v1/conversation/set', {
          token: bob.token,
          body: { conversation_id: mine, name: 'mine now' },
        })
      ).body,
    ).toMatchObject({ code: 102, message: 'Conversation not found!' });
    for (const route of ['/v1/conversation/delete_msg', '/v1/conversation/thumbup']) {
      const res = await call(server, route, {
        token: bob.token,
        body: { conversation_id: mine, message_id: 'm' },
      });
      expect(res.body).toMatchObject({ code: 102, message: 'Conversation not found!' });
    }
    const completion = await call(server, '/v1/conversation/completion', {
      token: bob.token,
      body: { conversation_id: mine, messages: [{ role: 'user', content: 'hi', id: 'q1' }] },
    });
    expect(completion.body).toMatchObject({ code: 102, message: 'Conversation not found!' });
    expect(
      (
        await call(server, '/v1/conversation/completion', {
          token: alice.token,
          body: { conversation_id: mine },
        })
      ).body,
    ).toMatchObject({
      code: 101,
      message: 'required argument are missing: messages; ',
    });
  });

  it('removes conversations for good, refusing foreign ones without touching any', async () => {
    const a = await createConversation(server, alice, dialogId);
    const bobDialog = (await createDialog(server, bob, { prompt_config: { system: '' } })).id;
    const b = await createConversation(server, bob, bobDialog);
    const refused = await call(server, '/v1/conversation/rm', {
      token: alice.token,
      body: { conversation_ids: [a, b] },
    });
    expect(refused.body).toEqual({
      code: 103,
      message: 'Only owner of conversation authorized for this operation.',
      data: false,
    });
    expect(
      (await call(server, `/v1/conversation/get?conversation_id=${a}`, { token: alice.token })).body.code,
    ).toBe(0);
    const missing = await call(server, '/v1/conversation/remove', {
      token: alice.token,
      body: { conversation_ids: ['d'.repeat(32)] },
    });
    expect(missing.body).toMatchObject({ code: 102, message: 'Conversation not found!' });
    const done = await call(server, '/v1/conversation/rm', {
      token: alice.token,
      body: { conversation_ids: [a] },
    });
    expect(done.body).toEqual({ code: 0, message: 'success', data: true });
    expect(
      (await call(server, `/v1/conversation/get?conversation_id=${a}`, { token: alice.token })).body.code,
    ).toBe(102);
  });

  it('shares the assistant with the beta token of its API key (getsse)', async () => {
    const key = await call<{ beta: string }>(server, '/v1/api/new_token', {
      token: alice.token,
      body: { dialog_id: dialogId },
    });
    const beta = (key.body.data as { beta: string }).beta;
    const res = await call<Record<string, unknown>>(server, `/v1/conversation/getsse/${dialogId}`, {
      headers: { Authorization: `Bearer ${beta}` },
    });
    expect(res.body.code).toBe(0);
    expect(res.body.data).toMatchObject({
      id: dialogId,
      avatar: 'data:image/png;base64,AAA',
      name: 'Helper',
    });
    expect(res.body.data).not.toHaveProperty('icon');
    expect(
      (await call(server, `/v1/conversation/getsse/${dialogId}`, { headers: { Authorization: beta } })).body,
    ).toMatchObject({
      code: 102,
      message: 'Authorization is not valid!',
    });
    expect(
      (
        await call(server, `/v1/conversation/getsse/${dialogId}`, {
          headers: { Authorization: 'Bearer nope' },
        })
      ).body,
    ).toMatchObject({ code: 102, message: 'Authentication error: API key is invalid!' });
    expect(
      (
        await call(server, `/v1/conversation/getsse/${'e'.repeat(32)}`, {
          headers: { Authorization: `Bearer ${beta}` },
        })
      ).body,
    ).toMatchObject({ code: 102, message: 'Dialog not found!' });
  });
});

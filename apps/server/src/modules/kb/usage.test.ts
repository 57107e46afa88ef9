import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { createKb } from './test-support.js';

type Usage = { dialogs: Array<{ id: string; name: string }>; total: number };
type DialogData = { kb_ids: string[]; kb_names: string[]; missing_kb_ids?: string[] };

/** Deleting a KB that assistants use: who uses it is asked first, and the assistants name what is gone. */
describe('KB usage by assistants', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    server = await startTestServer();
    alice = await newUser(server, 'alice');
    bob = await newUser(server, 'bob');
  });
  afterAll(async () => server.close());

  const newDialog = async (name: string, kbIds: string[]) => {
    const res = await call<{ id: string }>(server, '/v1/dialog/set', {
      token: alice.token,
      body: { name, kb_ids: kbIds, prompt_config: { system: 'Answer from {knowledge}' } },
    });
    expect(res.body.code, res.body.message).toBe(0);
    return (res.body.data as { id: string }).id;
  };
  const usage = (user: TestUser, kbId: string) =>
    call<Usage>(server, `/v1/kb/usage?kb_id=${kbId}`, { token: user.token });
  const dialog = async (id: string) =>
    (await call<DialogData>(server, `/v1/dialog/get?dialog_id=${id}`, { token: alice.token })).body
      .data as DialogData;

  it('names the assistants that use a KB, then shows them the deleted KB until it is dropped', async () => {
    const kept = await createKb(server, alice.token, { name: 'Kept' });
    const doomed = await createKb(server, alice.token, { name: 'Doomed' });
    const one = await newDialog('One', [kept, doomed]);
    const two = await newDialog('Two', [doomed]);
    await newDialog('Other', [kept]);
    const before = await usage(alice, doomed);
    expect(before.body.code).toBe(0);
    expect(before.body.data).toEqual({
      dialogs: [
        { id: two, name: 'Two' },
        { id: one, name: 'One' },
      ],
      total: 2,
    });

    expect((await call(server, '/v1/kb/rm', { token: alice.token, body: { kb_id: doomed } })).body.code).toBe(
      0,
    );
    expect(await dialog(one)).toMatchObject({ kb_ids: [kept], kb_names: ['Kept'], missing_kb_ids: [doomed] });
    expect(await dialog(two)).toMatchObject({ kb_ids: [], missing_kb_ids: [doomed] });
    const listed = (await call<DialogData[]>(server, '/v1/dialog/list', { token: alice.token })).body
      .data as Array<DialogData & { id: string }>;
    expect(listed.find((d) => d.id === one)?.missing_kb_ids).toEqual([doomed]);

    // The editor saves what it shows minus the deleted KB: one save, no error, nothing missing after.
    const saved = await call<DialogData>(server, '/v1/dialog/set', {
      token: alice.token,
      body: { dialog_id: one, kb_ids: [kept], prompt_config: { system: 'Answer from {knowledge}' } },
    });
    expect(saved.body.code, saved.body.message).toBe(0);
    expect(saved.body.data).not.toHaveProperty('missing_kb_ids');
    expect(await dialog(one)).not.toHaveProperty('missing_kb_ids');
  });

  it('refuses another tenant’s KB and an unknown one like every KB route', async () => {
    const kb = await createKb(server, alice.token, { name: 'Private' });
    const foreign = await usage(bob, kb);
    expect(foreign.body.code).not.toBe(0);
    const unknown = await usage(alice, 'f'.repeat(32));
    expect(unknown.body.code).not.toBe(0);
    const missing = await call(server, '/v1/kb/usage', { token: alice.token });
    expect(missing.body).toMatchObject({ code: 101 });
  });
});

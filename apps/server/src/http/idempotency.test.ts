import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../test/harness.js';

/** Double POSTs with one `Idempotency-Key` (a double-clicked Create): one effect, one answer. */
describe('Idempotency-Key', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    server = await startTestServer();
    alice = await newUser(server, 'alice');
    bob = await newUser(server, 'bob');
  });
  afterAll(async () => server.close());

  const kbNames = async (user: TestUser) =>
    (
      (await call<{ kbs: Array<{ name: string }> }>(server, '/v1/kb/list', { token: user.token, body: {} }))
        .body.data as { kbs: Array<{ name: string }> }
    ).kbs
      .map((k) => k.name)
      .sort();
  const createKb = (user: TestUser, name: string, key?: string) =>
    call<{ kb_id: string }>(server, '/v1/kb/create', {
      token: user.token,
      body: { name },
      headers: key ? { 'Idempotency-Key': key } : {},
    });

  it('two simultaneous creates with one key make one knowledge base and get the same answer', async () => {
    const [a, b] = await Promise.all([createKb(alice, 'Twice', 'k-1'), createKb(alice, 'Twice', 'k-1')]);
    expect(a.body.code).toBe(0);
    expect(b.body).toEqual(a.body);
    const replayed = [a, b].filter((r) => r.headers.get('idempotent-replayed') === 'true');
    expect(replayed).toHaveLength(1);
    const later = await createKb(alice, 'Twice', 'k-1');
    expect(later.body).toEqual(a.body);
    expect(await kbNames(alice)).toEqual(['Twice']);
  });

  it('without a key, or with another key, each POST runs', async () => {
    expect((await createKb(alice, 'Plain')).body.code).toBe(0);
    expect((await createKb(alice, 'Plain')).body.code).toBe(0);
    expect((await createKb(alice, 'Plain', 'k-2')).body.code).toBe(0);
    expect(await kbNames(alice)).toEqual(['Plain', 'Plain(1)', 'Plain(2)', 'Twice']);
  });

  it('refuses the same key for a different body, and changes nothing', async () => {
    const res = await createKb(alice, 'Other', 'k-1');
    expect(res.body).toEqual({
      code: 101,
      message: 'This Idempotency-Key was used for a different request.',
      data: null,
    });
    expect(await kbNames(alice)).not.toContain('Other');
  });

  it('keys are per user: another user’s request with the same key runs', async () => {
    const res = await createKb(bob, 'Twice', 'k-1');
    expect(res.body.code).toBe(0);
    expect((res.body.data as { kb_id: string }).kb_id).not.toBe(
      ((await createKb(alice, 'Twice', 'k-1')).body.data as { kb_id: string }).kb_id,
    );
    expect(await kbNames(bob)).toEqual(['Twice']);
  });

  it('forgets a failed attempt: the retry with the same key runs', async () => {
    const bad = await call(server, '/v1/kb/create', {
      token: alice.token,
      body: { name: '' },
      headers: { 'Idempotency-Key': 'k-3' },
    });
    expect(bad.body.code).not.toBe(0);
    const again = await call(server, '/v1/kb/create', {
      token: alice.token,
      body: { name: '' },
      headers: { 'Idempotency-Key': 'k-3' },
    });
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body).toEqual(bad.body);
  });

  it('double-clicked "create API key": one key', async () => {
    const dialog = await call<{ id: string }>(server, '/v1/dialog/set', {
      token: alice.token,
      body: { name: 'Helper', prompt_config: { system: 'hi', parameters: [] } },
    });
    expect(dialog.body.code).toBe(0);
    const dialogId = (dialog.body.data as { id: string }).id;
    const newToken = () =>
      call(server, '/v1/api/new_token', {
        token: alice.token,
        body: { dialog_id: dialogId },
        headers: { 'Idempotency-Key': 'token-1' },
      });
    const [a, b] = await Promise.all([newToken(), newToken()]);
    expect(b.body).toEqual(a.body);
    const list = await call<unknown[]>(server, `/v1/api/token_list?dialog_id=${dialogId}`, {
      token: alice.token,
    });
    expect(list.body.data).toHaveLength(1);
  });
});

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

/**
 * Two API processes on one database (SQLite file here, one PostgreSQL database in the PostgreSQL pass):
 * the Idempotency-Key records are shared, so a repeat sent to the other process replays the answer.
 */
describe('Idempotency-Key across two API processes', () => {
  let a: TestServer;
  let b: TestServer;
  let user: TestUser;
  beforeAll(async () => {
    a = await startTestServer();
    b = await startTestServer(
      a.ctx.db.dialect === 'postgres'
        ? { DATABASE_URL: a.ctx.config.databaseUrl ?? '' }
        : { LECTERN_DATA_DIR: a.dataDir },
    );
    user = await newUser(a, 'shared');
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const createKbOn = (server: TestServer, name: string, key: string) =>
    call<{ kb_id: string }>(server, '/v1/kb/create', {
      token: user.token,
      body: { name },
      headers: { 'Idempotency-Key': key },
    });
  const kbCount = async () =>
    (
      (await call<{ total: number }>(a, '/v1/kb/list', { token: user.token, body: {} })).body.data as {
        total: number;
      }
    ).total;

  it('a repeat on the other process replays the first answer', async () => {
    const first = await createKbOn(a, 'Shared', 'x-1');
    expect(first.body.code).toBe(0);
    const repeat = await createKbOn(b, 'Shared', 'x-1');
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.body).toEqual(first.body);
    expect(await kbCount()).toBe(1);
  });

  it('simultaneous repeats on both processes: one runs, the other waits and replays', async () => {
    const [x, y] = await Promise.all([createKbOn(a, 'Both', 'x-2'), createKbOn(b, 'Both', 'x-2')]);
    expect(x.body.code).toBe(0);
    expect(y.body).toEqual(x.body);
    expect([x, y].filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(1);
    expect(await kbCount()).toBe(2);
  });

  it('a different body under the key is refused on the other process too', async () => {
    const res = await createKbOn(b, 'Another', 'x-1');
    expect(res.body).toMatchObject({ code: 101 });
    expect(await kbCount()).toBe(2);
  });

  it('the remembered answer is sealed: a new API key is not readable in the table', async () => {
    const created = await call<{ token: string; beta: string }>(a, '/v1/system/new_token', {
      method: 'POST',
      token: user.token,
      headers: { 'Idempotency-Key': 'key-1' },
    });
    const key = created.body.data!.token;
    const again = await call<{ token: string }>(b, '/v1/system/new_token', {
      method: 'POST',
      token: user.token,
      headers: { 'Idempotency-Key': 'key-1' },
    });
    expect(again.body.data!.token).toBe(key);
    const rows = await a.ctx.db.kysely.selectFrom('idempotency_key').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    const text = JSON.stringify(rows);
    expect(text).not.toContain(key.slice(8));
    expect(text).not.toContain(created.body.data!.beta);
    expect(text).not.toContain('Shared');
  });
});

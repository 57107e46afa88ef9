import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer } from '../../../test/harness.js';

describe('system routes and API keys', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  it('reports version, public config, ping and healthz', async () => {
    const u = await newUser(server, 'sys');
    const version = await call(server, '/v1/system/version', { token: u.token });
    expect(version.body.data).toMatch(/^v\d+\.\d+\.\d+$/);
    expect((await call(server, '/v1/system/config')).body.data).toEqual({ registerEnabled: 1 });
    expect((await call(server, '/v1/system/ping')).body.data).toBe('pong');
    const health = await call(server, '/v1/system/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      database: 'ok',
      storage: 'ok',
      doc_engine: 'ok',
      queue: 'ok',
      status: 'ok',
    });
  });

  it('reports component status with timings', async () => {
    const u = await newUser(server, 'status');
    const res = await call<Record<string, Record<string, unknown>>>(server, '/v1/system/status', {
      token: u.token,
    });
    const data = res.body.data as Record<string, Record<string, unknown>>;
    for (const part of ['doc_engine', 'storage', 'database', 'redis']) {
      expect(data[part].status).toBe('green');
      expect(data[part].elapsed).toMatch(/^\d+\.\d$/);
    }
    expect(data.database.database).toMatch(/sqlite|postgresql/);
    expect(data.storage.storage).toBe('local');
    expect(typeof data.doc_engine.type).toBe('string');
    expect(data.task_executor_heartbeats).toEqual(expect.any(Object));
  });

  it('requires a login for version and status', async () => {
    expect((await call(server, '/v1/system/version')).status).toBe(401);
    expect((await call(server, '/v1/system/status')).status).toBe(401);
  });

  it('creates, lists, uses and deletes API keys', async () => {
    const u = await newUser(server, 'keys');
    const created = await call<Record<string, unknown>>(server, '/v1/system/new_token', {
      method: 'POST',
      token: u.token,
    });
    expect(created.body.code).toBe(0);
    const row = created.body.data as Record<string, unknown>;
    expect(row).toMatchObject({ tenant_id: u.id, update_time: null, update_date: null, dialog_id: null });
    expect(row.token).toMatch(/^lectern-[A-Za-z0-9_-]{43}$/);
    expect(row.beta).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(row.create_date).toMatch(/GMT$/);
    const key = row.token as string;

    const beta = row.beta as string;
    const stored = await server.ctx.db.kysely
      .selectFrom('api_token')
      .selectAll()
      .where('tenant_id', '=', u.id)
      .executeTakeFirstOrThrow();
    // At rest: a keyed hash and a hint, nothing that gives back the key or the beta token.
    const storedText = JSON.stringify(stored);
    expect(storedText).not.toContain(key.slice(12, -4));
    expect(storedText).not.toContain(beta.slice(4, -4));
    expect(stored.token_hint).toBe(`${key.slice(0, 12)}****${key.slice(-4)}`);
    expect(stored.beta_hint).toBe(`${beta.slice(0, 4)}****${beta.slice(-4)}`);

    // Lists show the hints only: the key was shown once, by new_token.
    const list = await call<Array<Record<string, unknown>>>(server, '/v1/system/token_list', {
      token: u.token,
    });
    expect(list.body.data).toEqual([
      expect.objectContaining({ token: stored.token_hint, beta: stored.beta_hint }),
    ]);

    // The key works as a bearer credential on login routes, acting as the tenant owner; its hint does not.
    const info = await call<{ id: string }>(server, '/v1/user/info', { token: `Bearer ${key}` });
    expect((info.body.data as { id: string }).id).toBe(u.id);
    const byHint = await call(server, '/v1/user/info', { token: `Bearer ${stored.token_hint}` });
    expect(byHint.status).toBe(401);

    const del = await call(server, `/v1/system/token/${encodeURIComponent(key)}`, {
      method: 'DELETE',
      token: u.token,
    });
    expect(del.body.data).toBe(true);
    const after = await call(server, '/v1/user/info', { token: `Bearer ${key}` });
    expect(after.status).toBe(401);
    expect((await call(server, '/v1/system/token_list', { token: u.token })).body.data).toEqual([]);
  });

  it('deletes a key by the exact hint the list shows', async () => {
    const u = await newUser(server, 'keyhint');
    const make = async () =>
      (await call<{ token: string }>(server, '/v1/system/new_token', { method: 'POST', token: u.token })).body
        .data!.token;
    const [first, second] = [await make(), await make()];
    const hints = (
      (await call<Array<{ token: string }>>(server, '/v1/system/token_list', { token: u.token })).body.data ??
      []
    ).map((r) => r.token);
    expect(hints).toHaveLength(2);
    expect(hints).not.toContain(first);
    const firstHint = hints.find((h) => h.startsWith(first.slice(0, 12)))!;
    const del = await call(server, `/v1/system/token/${encodeURIComponent(firstHint)}`, {
      method: 'DELETE',
      token: u.token,
    });
    expect(del.body).toMatchObject({ code: 0, data: true });
    expect((await call(server, '/v1/user/info', { token: `Bearer ${first}` })).status).toBe(401);
    expect((await call(server, '/v1/user/info', { token: `Bearer ${second}` })).body.code).toBe(0);

    // Two keys sharing a hint (rows from before hints were unique): the hint is refused, the key works.
    const [row] = await server.ctx.db.kysely
      .selectFrom('api_token')
      .select(['id', 'token_hint'])
      .where('tenant_id', '=', u.id)
      .execute();
    const third = await make();
    await server.ctx.db.kysely
      .updateTable('api_token')
      .set({ token_hint: row.token_hint })
      .where('token_hash', '=', server.ctx.secrets.mac(third))
      .execute();
    const ambiguous = await call(server, `/v1/system/token/${encodeURIComponent(row.token_hint)}`, {
      method: 'DELETE',
      token: u.token,
    });
    expect(ambiguous.body.code).toBe(101);
    expect(ambiguous.body.message).toMatch(/several API keys/);
    expect((await call(server, '/v1/user/info', { token: `Bearer ${second}` })).body.code).toBe(0);
    expect((await call(server, '/v1/user/info', { token: `Bearer ${third}` })).body.code).toBe(0);
    await call(server, `/v1/system/token/${encodeURIComponent(third)}`, { method: 'DELETE', token: u.token });
    expect((await call(server, '/v1/user/info', { token: `Bearer ${third}` })).status).toBe(401);
  });

  it("cannot delete or see another tenant's keys", async () => {
    const a = await newUser(server, 'keya');
    const b = await newUser(server, 'keyb');
    const created = await call<{ token: string }>(server, '/v1/system/new_token', {
      method: 'POST',
      token: a.token,
    });
    const key = (created.body.data as { token: string }).token;
    await call(server, `/v1/system/token/${encodeURIComponent(key)}`, { method: 'DELETE', token: b.token });
    expect((await call(server, '/v1/user/info', { token: `Bearer ${key}` })).body.code).toBe(0);
    expect((await call(server, '/v1/system/token_list', { token: b.token })).body.data).toEqual([]);
  });
});

describe('/v1 conventions', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ MAX_JSON_BYTES: '2048', CORS_ORIGINS: 'http://example.org' });
  });
  afterAll(async () => server.close());

  it('answers unknown paths with the 404 envelope', async () => {
    const res = await call(server, '/v1/nope/nothing?x=1');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      code: 404,
      message: 'Not Found: /v1/nope/nothing',
      data: null,
      error: 'Not Found',
    });
  });

  it('answers malformed JSON with a clean 400 envelope, never a stack', async () => {
    const res = await call(server, '/v1/user/login', { rawBody: '{"email": "a@b.c", ' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 101, message: 'Malformed JSON in request body.', data: null });
  });

  it('refuses bodies over the limit with 413', async () => {
    const res = await call(server, '/v1/user/login', { body: { email: 'x'.repeat(5000) } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 400, message: 'Request body too large', data: null });
  });

  it('ignores a trailing slash and answers CORS preflights exposing Authorization', async () => {
    const res = await call(server, '/v1/system/config/');
    expect(res.body.code).toBe(0);
    const pre = await fetch(`${server.url}/v1/user/login`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://example.org', 'Access-Control-Request-Method': 'POST' },
    });
    expect(pre.status).toBeLessThan(300);
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://example.org');
    const get = await fetch(`${server.url}/v1/system/config`, { headers: { Origin: 'http://example.org' } });
    expect(get.headers.get('access-control-expose-headers')).toMatch(/Authorization/);
  });
});

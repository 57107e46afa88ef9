/**
 * /v1/langfuse/api_key (API.md §14) against the Langfuse stand-in on 127.0.0.1: keys are checked
 * against the host before they are stored, the secret is sealed at rest and shown masked, each
 * tenant sees and removes only its own keys, and the contract's messages hold exactly.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startLangfuseStandin, type LangfuseStandin } from '../../../test/standins/index.js';

const PK = 'pk-lf-0123456789abcdef';
const SK = 'sk-lf-fedcba9876543210secret';
const NO_KEYS = 'Have not record any tracing keys.';

let server: TestServer;
let lf: LangfuseStandin;
let owner: TestUser;
let stranger: TestUser;

const keys = (extra: Record<string, unknown> = {}) => ({
  secret_key: SK,
  public_key: PK,
  host: lf.origin,
  ...extra,
});

/** A port on 127.0.0.1 nothing listens on. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

beforeAll(async () => {
  lf = await startLangfuseStandin({ publicKey: PK, secretKey: SK });
  server = await startTestServer();
  owner = await newUser(server, 'tracer');
  stranger = await newUser(server, 'stranger');
});

afterAll(async () => {
  await server?.close();
  await lf?.close();
});

describe('/v1/langfuse/api_key', () => {
  it('without keys: GET and DELETE answer code 0 with the contract message and no data', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await call(server, '/v1/langfuse/api_key', { method, token: owner.token });
      expect(res.body).toEqual({ code: 0, message: NO_KEYS });
    }
  });

  it('refuses absent, empty and malformed fields', async () => {
    const absent = await call(server, '/v1/langfuse/api_key', { token: owner.token, body: {} });
    expect(absent.body).toMatchObject({
      code: 101,
      message: 'required argument are missing: secret_key,public_key,host; ',
    });
    const empty = await call(server, '/v1/langfuse/api_key', {
      token: owner.token,
      body: keys({ public_key: '' }),
    });
    expect(empty.body).toMatchObject({ code: 102, message: 'Missing required fields' });
    const nulled = await call(server, '/v1/langfuse/api_key', {
      method: 'PUT',
      token: owner.token,
      body: keys({ secret_key: null }),
    });
    expect(nulled.body).toMatchObject({ code: 102, message: 'Missing required fields' });
    const notUrl = await call(server, '/v1/langfuse/api_key', {
      token: owner.token,
      body: keys({ host: 'langfuse.local' }),
    });
    expect(notUrl.body).toMatchObject({ code: 100, message: '`host` must be an http(s) URL.' });
    const notString = await call(server, '/v1/langfuse/api_key', {
      token: owner.token,
      body: keys({ public_key: 42 }),
    });
    expect(notString.body).toMatchObject({ code: 100, message: '`public_key` must be a string.' });
    expect(lf.requests).toHaveLength(0);
  });

  it('wrong keys are refused by the host check and nothing is stored', async () => {
    const res = await call(server, '/v1/langfuse/api_key', {
      token: owner.token,
      body: keys({ secret_key: 'sk-lf-wrong' }),
    });
    expect(res.body).toMatchObject({ code: 102, message: 'Invalid tracing keys' });
    const check = lf.requests.at(-1)!;
    expect(check.method).toBe('GET');
    expect(check.path).toBe('/api/public/projects');
    expect(check.headers.authorization).toBe(`Basic ${Buffer.from(`${PK}:sk-lf-wrong`).toString('base64')}`);
    const get = await call(server, '/v1/langfuse/api_key', { token: owner.token });
    expect(get.body).toEqual({ code: 0, message: NO_KEYS });
  });

  it('a host that does not answer is a connection error (105)', async () => {
    const res = await call(server, '/v1/langfuse/api_key', {
      token: owner.token,
      body: keys({ host: `http://127.0.0.1:${await closedPort()}` }),
    });
    expect(res.body.code).toBe(105);
    expect(res.body.message).toMatch(/^The tracing host could not be reached/);
  });

  it('good keys are stored after the check, the secret sealed at rest and shown masked', async () => {
    const res = await call(server, '/v1/langfuse/api_key', {
      token: owner.token,
      body: keys({ host: `${lf.origin}/` }),
    });
    expect(res.body.code).toBe(0);
    expect(res.body.data).toEqual({
      tenant_id: owner.id,
      secret_key: 'sk-l…cret',
      public_key: PK,
      host: lf.origin,
    });
    const row = await server.ctx.db.kysely
      .selectFrom('tenant_tracing')
      .selectAll()
      .where('tenant_id', '=', owner.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_key.startsWith('v1:')).toBe(true);
    expect(row.secret_key).not.toContain(SK);
    expect(server.ctx.secrets.decrypt(row.secret_key)).toBe(SK);

    const get = await call(server, '/v1/langfuse/api_key', { token: owner.token });
    expect(get.body).toEqual({
      code: 0,
      message: 'success',
      data: {
        tenant_id: owner.id,
        secret_key: 'sk-l…cret',
        public_key: PK,
        host: lf.origin,
        project_id: lf.project.id,
        project_name: lf.project.name,
      },
    });
  });

  it('PUT with the masked secret sent back keeps the stored secret', async () => {
    const res = await call(server, '/v1/langfuse/api_key', {
      method: 'PUT',
      token: owner.token,
      body: keys({ secret_key: 'sk-l…cret' }),
    });
    expect(res.body.code).toBe(0);
    expect(lf.requests.at(-1)!.headers.authorization).toBe(
      `Basic ${Buffer.from(`${PK}:${SK}`).toString('base64')}`,
    );
    const row = await server.ctx.db.kysely
      .selectFrom('tenant_tracing')
      .select('secret_key')
      .where('tenant_id', '=', owner.id)
      .executeTakeFirstOrThrow();
    expect(server.ctx.secrets.decrypt(row.secret_key)).toBe(SK);
  });

  it('another tenant neither sees nor removes the keys', async () => {
    const get = await call(server, '/v1/langfuse/api_key', { token: stranger.token });
    expect(get.body).toEqual({ code: 0, message: NO_KEYS });
    const del = await call(server, '/v1/langfuse/api_key', { method: 'DELETE', token: stranger.token });
    expect(del.body).toEqual({ code: 0, message: NO_KEYS });
    const still = await call<{ tenant_id: string }>(server, '/v1/langfuse/api_key', { token: owner.token });
    expect(still.body.data?.tenant_id).toBe(owner.id);
  });

  it('stored keys the host no longer accepts: GET answers "Invalid tracing keys loaded"', async () => {
    await server.ctx.db.kysely
      .updateTable('tenant_tracing')
      .set({ public_key: 'pk-lf-revoked' })
      .where('tenant_id', '=', owner.id)
      .execute();
    const get = await call(server, '/v1/langfuse/api_key', { token: owner.token });
    expect(get.body).toMatchObject({ code: 102, message: 'Invalid tracing keys loaded' });
  });

  it('DELETE removes the keys: true, then the tenant has none', async () => {
    const del = await call(server, '/v1/langfuse/api_key', { method: 'DELETE', token: owner.token });
    expect(del.body).toEqual({ code: 0, message: 'success', data: true });
    const get = await call(server, '/v1/langfuse/api_key', { token: owner.token });
    expect(get.body).toEqual({ code: 0, message: NO_KEYS });
  });

  it('answers 401 without a credential', async () => {
    const res = await call(server, '/v1/langfuse/api_key');
    expect(res.status).toBe(401);
  });
});

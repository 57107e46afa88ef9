import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { call, newUser, startTestServer, type TestServer } from '../../../test/harness.js';

const UNAUTHORIZED = { code: 401, message: "<Unauthorized '401: Unauthorized'>", data: null };

describe('user accounts and sessions', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  it('registers a user with tenant, membership and root folder, and returns a working token', async () => {
    const res = await call<Record<string, unknown>>(server, '/v1/user/register', {
      body: { nickname: 'Ada', email: 'Ada.Lovelace@Example.com', password: 'analytical-engine' },
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.message).toBe('Ada, welcome aboard!');
    const user = res.body.data as Record<string, unknown>;
    expect(user.email).toBe('ada.lovelace@example.com');
    expect(user).not.toHaveProperty('password');
    expect(user.access_token).toMatch(/^[0-9a-f]{32}$/);
    expect(user.id).toMatch(/^[0-9a-f]{32}$/);
    expect(user.language).toBe('English');
    expect(user.color_schema).toBe('Bright');
    expect(user.timezone).toBe('UTC+8\tAsia/Shanghai');
    expect(user.is_superuser).toBe(false);
    expect(typeof user.create_time).toBe('number');
    expect(user.create_date).toMatch(/GMT$/);
    const token = res.headers.get('authorization');
    expect(token).toBeTruthy();
    // Same-origin callers read the header without CORS; cross-origin exposure is for CORS_ORIGINS
    // only (src/http/hardening.test.ts).
    expect(res.headers.get('access-control-allow-origin')).toBeNull();

    const db = server.ctx.db.kysely;
    const tenant = await db
      .selectFrom('tenant')
      .selectAll()
      .where('id', '=', user.id as string)
      .executeTakeFirst();
    expect(tenant?.name).toBe('Ada\u2018s Kingdom');
    expect(tenant?.parser_ids).toContain('naive:General');
    const membership = await db
      .selectFrom('user_tenant')
      .selectAll()
      .where('user_id', '=', user.id as string)
      .execute();
    expect(membership).toHaveLength(1);
    expect(membership[0]).toMatchObject({ tenant_id: user.id, role: 'owner', invited_by: user.id });
    const root = await db
      .selectFrom('file')
      .selectAll()
      .where('tenant_id', '=', user.id as string)
      .execute();
    expect(root).toHaveLength(1);
    expect(root[0].id).toBe(root[0].parent_id);
    expect(root[0]).toMatchObject({ name: '/', type: 'folder' });
    const stored = await db
      .selectFrom('user')
      .select(['password', 'access_token'])
      .where('id', '=', user.id as string)
      .executeTakeFirstOrThrow();
    expect(stored.password).toMatch(/^\$argon2id\$/);
    expect(stored.access_token).not.toBe(user.access_token); // only a hash is stored

    const info = await call(server, '/v1/user/info', { token: token as string });
    expect(info.body.code).toBe(0);
    expect((info.body.data as { email: string }).email).toBe('ada.lovelace@example.com');
  });

  it('lists missing registration fields in declared order', async () => {
    const res = await call(server, '/v1/user/register', { body: { email: 'x@y.com' } });
    expect(res.body).toEqual({ code: 101, message: 'required argument are missing: nickname,password; ' });
    const empty = await call(server, '/v1/user/register', { method: 'POST' });
    expect(empty.body.message).toBe('required argument are missing: nickname,email,password; ');
    const notObject = await call(server, '/v1/user/register', { rawBody: '[1,2,3]' });
    expect(notObject.body.message).toBe('required argument are missing: nickname,email,password; ');
  });

  it('refuses bad emails, duplicates, short passwords and wrong types without storing anything', async () => {
    const bad = await call(server, '/v1/user/register', {
      body: { nickname: 'a', email: 'not-an-email', password: 'long-enough-1' },
    });
    expect(bad.body).toMatchObject({ code: 103, message: 'Invalid email address: not-an-email!' });
    const short = await call(server, '/v1/user/register', {
      body: { nickname: 'a', email: 'short@example.com', password: '12345678' },
    });
    expect(short.body).toMatchObject({ code: 101, message: 'Password must be longer than 8 characters.' });
    const typed = await call(server, '/v1/user/register', {
      body: { nickname: 'a', email: 42, password: 'long-enough-1' },
    });
    expect(typed.body).toMatchObject({ code: 100, message: '`email` must be a string.' });
    // A nickname longer than the user row's column (100) is refused, on SQLite as on PostgreSQL.
    const long = await call(server, '/v1/user/register', {
      body: { nickname: 'n'.repeat(101), email: 'long@example.com', password: 'long-enough-1' },
    });
    expect(long.body).toMatchObject({ message: '`nickname` is too long (at most 100 characters).' });
    expect(long.body.code).not.toBe(0);
    const first = await newUser(server, 'dup');
    const dup = await call(server, '/v1/user/register', {
      body: { nickname: 'b', email: first.email.toUpperCase(), password: 'long-enough-1' },
    });
    expect(dup.body).toMatchObject({
      code: 103,
      message: `Email: ${first.email.toUpperCase()} has already registered!`,
    });
    const count = await server.ctx.db.kysely
      .selectFrom('user')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('email', 'in', ['short@example.com', 'not-an-email', 'long@example.com'])
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('logs in with the token in the Authorization header and rotates the session', async () => {
    const u = await newUser(server, 'login');
    const res = await call(server, '/v1/user/login', { body: { email: u.email, password: u.password } });
    expect(res.body.code).toBe(0);
    expect(res.body.message).toBe('Welcome back!');
    const token = res.headers.get('authorization') as string;
    expect(token).toBeTruthy();
    // the register token died when login rotated the secret
    const old = await call(server, '/v1/user/info', { token: u.token });
    expect(old.status).toBe(401);
    expect(old.body).toEqual(UNAUTHORIZED);
    const viaBearer = await call(server, '/v1/user/info', { token: `Bearer ${token}` });
    expect(viaBearer.body.code).toBe(0);
  });

  it('answers the contract messages for bad logins', async () => {
    const u = await newUser(server, 'badlogin');
    expect((await call(server, '/v1/user/login', { method: 'POST' })).body).toMatchObject({
      code: 109,
      message: 'Unauthorized!',
    });
    expect(
      (
        await call(server, '/v1/user/login', {
          body: { email: 'nobody@example.com', password: 'whatever-123' },
        })
      ).body,
    ).toMatchObject({
      code: 109,
      message: 'Email: nobody@example.com is not registered!',
    });
    expect(
      (await call(server, '/v1/user/login', { body: { email: u.email, password: 'wrong-password' } })).body,
    ).toMatchObject({
      code: 109,
      message: 'Email and password do not match!',
    });
  });

  it('refuses disabled accounts with 403', async () => {
    const u = await newUser(server, 'disabled');
    await server.ctx.db.kysely.updateTable('user').set({ is_active: '0' }).where('id', '=', u.id).execute();
    const res = await call(server, '/v1/user/login', { body: { email: u.email, password: u.password } });
    expect(res.body).toMatchObject({
      code: 403,
      message: 'This account has been disabled, please contact the administrator!',
    });
  });

  it('logout revokes the token (GET and POST)', async () => {
    const u = await newUser(server, 'logout');
    const out = await call(server, '/v1/user/logout', { method: 'POST', token: u.token });
    expect(out.body).toEqual({ code: 0, message: 'success', data: true });
    const after = await call(server, '/v1/user/info', { token: u.token });
    expect(after.status).toBe(401);
    expect(after.body).toEqual(UNAUTHORIZED);
    const again = await call(server, '/v1/user/login', { body: { email: u.email, password: u.password } });
    const viaGet = await call(server, '/v1/user/logout', {
      token: again.headers.get('authorization') as string,
    });
    expect(viaGet.body.data).toBe(true);
    const stored = await server.ctx.db.kysely
      .selectFrom('user')
      .select('access_token')
      .where('id', '=', u.id)
      .executeTakeFirstOrThrow();
    expect(stored.access_token).toMatch(/^INVALID_[0-9a-f]{32}$/);
  });

  it('answers HTTP 401 for missing, forged and malformed tokens', async () => {
    for (const token of [undefined, 'garbage', 'Zm9v.bar', 'Bearer ']) {
      const res = await call(server, '/v1/user/info', { token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    }
  });

  it('updates profile fields and ignores fixed ones', async () => {
    const u = await newUser(server, 'profile');
    const res = await call(server, '/v1/user/setting', {
      token: u.token,
      body: {
        nickname: 'Grace',
        language: 'German',
        color_schema: 'Dark',
        timezone: 'UTC+1\tEurope/Berlin',
        email: 'hijack@example.com',
        is_superuser: true,
      },
    });
    expect(res.body).toEqual({ code: 0, message: 'success', data: true });
    const info = await call<Record<string, unknown>>(server, '/v1/user/info', { token: u.token });
    expect(info.body.data).toMatchObject({
      nickname: 'Grace',
      language: 'German',
      color_schema: 'Dark',
      timezone: 'UTC+1\tEurope/Berlin',
      email: u.email,
      is_superuser: false,
    });
    const badScheme = await call(server, '/v1/user/setting', {
      token: u.token,
      body: { color_schema: 'Purple' },
    });
    expect(badScheme.body).toMatchObject({ code: 100, message: '`color_schema` must be Bright or Dark.' });
  });

  it('stores avatars as PNG thumbnails no larger than 100 px', async () => {
    const u = await newUser(server, 'avatar');
    const big = await sharp({ create: { width: 640, height: 320, channels: 3, background: '#3366cc' } })
      .jpeg()
      .toBuffer();
    const res = await call(server, '/v1/user/setting', {
      token: u.token,
      body: { avatar: `data:image/jpeg;base64,${big.toString('base64')}` },
    });
    expect(res.body.code).toBe(0);
    const info = await call<{ avatar: string }>(server, '/v1/user/info', { token: u.token });
    const avatar = (info.body.data as { avatar: string }).avatar;
    expect(avatar.startsWith('data:image/png;base64,')).toBe(true);
    const meta = await sharp(Buffer.from(avatar.split(',')[1], 'base64')).metadata();
    expect(meta.format).toBe('png');
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(100);
    expect(meta.height).toBe(50);
    const bad = await call(server, '/v1/user/setting', {
      token: u.token,
      body: { avatar: 'data:image/png;base64,AAAA' },
    });
    expect(bad.body).toMatchObject({ code: 100, message: '`avatar` is not an image that can be read.' });
  });

  it('changes the password only with the current one and a long enough new one', async () => {
    const u = await newUser(server, 'pw');
    const wrong = await call(server, '/v1/user/setting', {
      token: u.token,
      body: { password: 'nope-nope-nope', new_password: 'brand-new-pass' },
    });
    expect(wrong.body).toMatchObject({ code: 109, message: 'Password error!' });
    const missing = await call(server, '/v1/user/setting', {
      token: u.token,
      body: { new_password: 'brand-new-pass' },
    });
    expect(missing.body).toMatchObject({ code: 109, message: 'Password error!' });
    const short = await call(server, '/v1/user/setting', {
      token: u.token,
      body: { password: u.password, new_password: 'short' },
    });
    expect(short.body).toMatchObject({ code: 101, message: 'Password must be longer than 8 characters.' });
    const good = await call(server, '/v1/user/setting', {
      token: u.token,
      body: { password: u.password, new_password: 'brand-new-pass' },
    });
    expect(good.body.code).toBe(0);
    expect(
      (await call(server, '/v1/user/login', { body: { email: u.email, password: u.password } })).body.code,
    ).toBe(109);
    expect(
      (await call(server, '/v1/user/login', { body: { email: u.email, password: 'brand-new-pass' } })).body
        .code,
    ).toBe(0);
  });

  it('reads and writes the tenant system-default models, only for the own tenant', async () => {
    const u = await newUser(server, 'tenant');
    const other = await newUser(server, 'other');
    const info = await call<Record<string, unknown>>(server, '/v1/user/tenant_info', { token: u.token });
    expect(info.body.data).toMatchObject({
      tenant_id: u.id,
      role: 'owner',
      name: 'tenant\u2018s Kingdom',
      llm_id: server.ctx.config.defaultModels.llm_id,
      embd_id: server.ctx.config.defaultModels.embd_id,
    });
    const missing = await call(server, '/v1/user/set_tenant_info', {
      token: u.token,
      body: { tenant_id: u.id },
    });
    expect(missing.body.message).toBe('required argument are missing: asr_id,embd_id,img2txt_id,llm_id; ');
    const body = {
      tenant_id: u.id,
      asr_id: '',
      embd_id: 'bge@Builtin',
      img2txt_id: '',
      llm_id: 'gpt-4o@OpenAI',
      rerank_id: 'r@Jina',
    };
    expect((await call(server, '/v1/user/set_tenant_info', { token: u.token, body })).body.data).toBe(true);
    const after = await call(server, '/v1/user/tenant_info', { token: u.token });
    expect(after.body.data).toMatchObject({
      embd_id: 'bge@Builtin',
      llm_id: 'gpt-4o@OpenAI',
      rerank_id: 'r@Jina',
    });
    const foreign = await call(server, '/v1/user/set_tenant_info', { token: other.token, body });
    expect(foreign.body).toMatchObject({ code: 109, message: 'No authorization.' });
  });

  it('serves the /account/user/info alias', async () => {
    const u = await newUser(server, 'alias');
    const res = await call(server, '/v1/account/user/info', { token: u.token });
    expect((res.body.data as { id: string }).id).toBe(u.id);
  });
});

describe('registration disabled', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ REGISTER_ENABLED: '0' });
  });
  afterAll(async () => server.close());

  it('answers the disabled message and reports it in system config', async () => {
    const res = await call(server, '/v1/user/register', {
      body: { nickname: 'n', email: 'n@example.com', password: 'long-enough-1' },
    });
    expect(res.body).toMatchObject({ code: 103, message: 'User registration is disabled!' });
    const config = await call(server, '/v1/system/config');
    expect(config.body).toEqual({ code: 0, message: 'success', data: { registerEnabled: 0 } });
  });
});

describe('login rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOGIN_RATE_LIMIT: '3' });
  });
  afterAll(async () => server.close());

  it('refuses login attempts past the limit with a clean envelope', async () => {
    const body = { email: 'brute@example.com', password: 'guess-guess-1' };
    for (let i = 0; i < 3; i += 1)
      expect((await call(server, '/v1/user/login', { body })).body.code).toBe(109);
    const blocked = await call(server, '/v1/user/login', { body });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: 10, message: 'Too many attempts, please try again later.' });
  });
});

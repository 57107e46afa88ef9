/**
 * Issue 11 item 5 (credentials) over HTTP: e-mail normalized before the rate limit and lookup,
 * unknown accounts cost an argon2 check, API keys refused on the account routes, a password change
 * ends the sessions, the web-search key shown masked, keys kept out of access logs, the secret key
 * file private.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { redactUrl } from './log-redact.js';

let server: TestServer;
let user: TestUser;
let apiKey: string;

beforeAll(async () => {
  server = await startTestServer({ LOGIN_RATE_LIMIT: '4' });
  user = await newUser(server, 'cred');
  const created = await call<{ token: string }>(server, '/v1/system/new_token', {
    token: user.token,
    body: {},
  });
  apiKey = (created.body.data as { token: string }).token;
});
afterAll(async () => server.close());

describe('login', () => {
  it('normalizes the e-mail (case, spaces) for lookup and for the rate limit', async () => {
    const spelled = `  ${user.email.toUpperCase()} `;
    const ok = await call(server, '/v1/user/login', { body: { email: spelled, password: user.password } });
    expect(ok.body.code).toBe(0);
    user.token = ok.headers.get('authorization') as string;
    const victim = await newUser(server, 'victim');
    const spellings = [victim.email, victim.email.toUpperCase(), ` ${victim.email}`, `${victim.email}  `];
    for (const email of spellings)
      expect(
        (await call(server, '/v1/user/login', { body: { email, password: 'wrong-guess-1' } })).body.code,
      ).toBe(109);
    const blocked = await call(server, '/v1/user/login', {
      body: { email: victim.email.replace(/^./, (c) => c.toUpperCase()), password: 'wrong-guess-2' },
    });
    expect(blocked.status).toBe(429);
  });

  it('spends an argon2 check on unknown accounts too (no timing tell)', async () => {
    const timed = async (email: string) => {
      const started = performance.now();
      await call(server, '/v1/user/login', { body: { email, password: 'not-the-password-9' } });
      return performance.now() - started;
    };
    const known = await newUser(server, 'timing');
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      knownTimes.push(await timed(known.email));
      unknownTimes.push(await timed(`nobody${i}.${Date.now()}@example.com`));
    }
    // Without the dummy check an unknown account answers in a few ms against tens for a real check.
    expect(median(unknownTimes)).toBeGreaterThan(median(knownTimes) * 0.3);
  });
});

describe('API keys on account routes', () => {
  it.each([
    ['POST', '/v1/user/setting', { nickname: 'key-was-here' }],
    [
      'POST',
      '/v1/user/set_tenant_info',
      { tenant_id: 'x', asr_id: '', embd_id: '', img2txt_id: '', llm_id: '' },
    ],
    ['POST', '/v1/system/new_token', {}],
    ['DELETE', '/v1/system/token/whatever', undefined],
    ['POST', '/v1/api/new_token', { dialog_id: 'x' }],
    ['POST', '/v1/api/rm', { tokens: ['x'], tenant_id: 'x' }],
    ['POST', '/v1/llm/set_api_key', { llm_factory: 'OpenAI', api_key: 'sk-x' }],
    ['POST', '/v1/llm/add_llm', { llm_factory: 'OpenAI', llm_name: 'x', model_type: 'chat' }],
  ])('%s %s answers 109 to an API key', async (method, route, body) => {
    const res = await call(server, route, { method, token: `Bearer ${apiKey}`, ...(body ? { body } : {}) });
    expect(res.body).toMatchObject({ code: 109, message: 'No authorization.' });
  });

  it('still lets the key act on data routes, and nothing changed on the account', async () => {
    const info = await call<{ nickname: string }>(server, '/v1/user/info', { token: `Bearer ${apiKey}` });
    expect(info.body.code).toBe(0);
    expect(info.body.data?.nickname).not.toBe('key-was-here');
    const kbs = await call(server, '/v1/kb/list', { token: `Bearer ${apiKey}`, body: {} });
    expect(kbs.body.code).toBe(0);
  });
});

describe('password change', () => {
  it('ends every session and asks to sign in again', async () => {
    const u = await newUser(server, 'pw');
    const second = await call(server, '/v1/user/login', { body: { email: u.email, password: u.password } });
    const other = second.headers.get('authorization') as string;
    const changed = await call(server, '/v1/user/setting', {
      token: other,
      body: { password: u.password, new_password: 'a-brand-new-pass-1' },
    });
    expect(changed.body.code).toBe(0);
    expect((await call(server, '/v1/user/info', { token: other })).status).toBe(401);
    const again = await call(server, '/v1/user/login', {
      body: { email: u.email, password: 'a-brand-new-pass-1' },
    });
    expect(again.body.code).toBe(0);
  });
});

describe('web-search key', () => {
  it('is shown masked, and sending the mask back keeps the stored key', async () => {
    const secret = 'tvly-0123456789abcdefXYZ';
    const created = await call<{ id: string; prompt_config: { tavily_api_key: string } }>(
      server,
      '/v1/dialog/set',
      {
        token: user.token,
        body: { prompt_config: { system: 'Be brief.', parameters: [], tavily_api_key: secret } },
      },
    );
    expect(created.body.code).toBe(0);
    const dialog = created.body.data!;
    expect(dialog.prompt_config.tavily_api_key).toBe('tvly…fXYZ');
    const got = await call<{ prompt_config: { tavily_api_key: string } }>(
      server,
      `/v1/dialog/get?dialog_id=${dialog.id}`,
      { token: user.token },
    );
    expect(JSON.stringify(got.body)).not.toContain(secret);
    const resaved = await call(server, '/v1/dialog/set', {
      token: user.token,
      body: { dialog_id: dialog.id, name: 'renamed', prompt_config: got.body.data!.prompt_config },
    });
    expect(resaved.body.code).toBe(0);
    const row = await server.ctx.db.kysely
      .selectFrom('dialog')
      .select('prompt_config')
      .where('id', '=', dialog.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(String(row.prompt_config)).tavily_api_key).toBe(secret);
  });
});

describe('logs and files', () => {
  it('redacts keys in logged URLs', () => {
    expect(redactUrl('/v1/system/token/lectern-abc')).toBe('/v1/system/token/[redacted]');
    expect(redactUrl('/v1/conversation/getsse/d1?auth=beta123&x=1')).toBe(
      '/v1/conversation/getsse/d1?auth=[redacted]&x=1',
    );
    expect(redactUrl('/v1/kb/list?page=1')).toBe('/v1/kb/list?page=1');
  });

  it('creates the secret key file readable by its owner only, and tightens an existing one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-key-'));
    try {
      loadConfig({ LECTERN_DATA_DIR: dir });
      const file = path.join(dir, 'secret.key');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      fs.chmodSync(file, 0o644);
      loadConfig({ LECTERN_DATA_DIR: dir });
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

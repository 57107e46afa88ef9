/**
 * Fuzz over every registered /v1 route of the contract (issue 11 "must show"): wrong types, missing
 * fields, huge values and odd path parameters. Asserts that no answer is an HTTP 500 or the
 * "unexpected error" envelope, and that no fuzzed request changed stored data (every table's rows
 * are compared before and after each route's cases). Bounded: a dozen-odd cases per route.
 */
import crypto from 'node:crypto';
import { allRoutes, type RouteContract } from '@lectern/shared';
import { sql } from 'kysely';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from './harness.js';
import { createKb, uploadDocs } from '../src/modules/kb/test-support.js';

let server: TestServer;
let user: TestUser;
let apiKey: string;
const ids: Record<string, string> = {};

/** Routes that act without any input: a fuzzed call is a real call, so their effect is expected. */
const ACTS_WITHOUT_INPUT = new Set([
  'GET /v1/user/logout',
  'POST /v1/user/logout',
  'POST /v1/system/new_token',
  'GET /v1/system/token_list',
]);

const HUGE_STRING = 'x'.repeat(100_000);
const BAD_VALUES: unknown[] = [
  12345,
  -1,
  1e308,
  true,
  null,
  [],
  { nested: { deeper: [1, 2, 3] } },
  HUGE_STRING,
  Array.from({ length: 5000 }, (_, i) => i),
  '../../etc/passwd',
  '\u0000\uffff',
  'abc',
];
const BAD_PARAMS = ['x'.repeat(300), '..%2F..%2Fsecret', '%00', '0'.repeat(32), '-1'];

function fieldsOf(schema: z.ZodObject | undefined): string[] {
  return schema ? Object.keys(schema.shape) : [];
}

interface FuzzCase {
  label: string;
  path: string;
  query: Record<string, unknown>;
  body: Record<string, unknown> | string | undefined;
}

function fillPath(path: string, value: (name: string) => string): string {
  return path.replace(/:([a-z_]+)/g, (_, name: string) =>
    encodeURIComponent(value(name)).replace(/%25/g, '%'),
  );
}

/** A real id for a path parameter, so the route gets past its lookup with fuzzed input. */
function realParam(name: string): string {
  if (name.includes('kb')) return ids.kb;
  if (name.includes('doc')) return ids.doc;
  if (name.includes('dialog')) return ids.dialog;
  if (name === 'token') return 'not-a-key';
  return ids.doc;
}

function casesOf(route: RouteContract): FuzzCase[] {
  const bodyFields = [...fieldsOf(route.body), ...fieldsOf(route.form?.fields)];
  const queryFields = fieldsOf(route.query);
  const path = fillPath(route.path, realParam);
  const cases: FuzzCase[] = [{ label: 'nothing', path, query: {}, body: undefined }];
  cases.push({ label: 'not an object', path, query: {}, body: '[1,2,3]' });
  BAD_PARAMS.slice(0, route.path.includes(':') ? BAD_PARAMS.length : 0).forEach((p) =>
    cases.push({
      label: `param ${p.slice(0, 12)}`,
      path: fillPath(route.path, () => p),
      query: {},
      body: {},
    }),
  );
  const all = [
    ...bodyFields.map((f) => ['body', f] as const),
    ...queryFields.map((f) => ['query', f] as const),
  ];
  // Every field alone with two bad values (rotating through the list), then all fields at once.
  all.slice(0, 8).forEach(([where, field], i) => {
    for (const value of [BAD_VALUES[i % BAD_VALUES.length], BAD_VALUES[(i + 5) % BAD_VALUES.length]]) {
      const one = { [field]: value };
      cases.push({
        label: `${field}=${JSON.stringify(value)?.slice(0, 20)}`,
        path,
        query: where === 'query' ? one : {},
        body: where === 'body' ? one : {},
      });
    }
  });
  for (const value of [1e308, HUGE_STRING, { a: 1 }, -1]) {
    cases.push({
      label: `all=${JSON.stringify(value).slice(0, 20)}`,
      path,
      query: Object.fromEntries(queryFields.map((f) => [f, value])),
      body: Object.fromEntries(bodyFields.map((f) => [f, value])),
    });
  }
  return cases;
}

function queryString(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    // Query values travel as text; a huge one is cut to what a URL can carry.
    const text = typeof v === 'string' ? v : JSON.stringify(v);
    params.set(k, (text ?? '').slice(0, 4000));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

async function send(route: RouteContract, c: FuzzCase) {
  const token = route.auth === 'apiKey' || route.auth === 'beta' ? `Bearer ${apiKey}` : user.token;
  const url = `${c.path}${queryString(c.query)}`;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 15_000);
  try {
    let body: FormData | string | undefined;
    const headers: Record<string, string> = { Authorization: token };
    if (route.method !== 'GET' && c.body !== undefined) {
      if (route.form) {
        const form = new FormData();
        if (typeof c.body === 'object')
          for (const [k, v] of Object.entries(c.body))
            form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
        else form.append('junk', c.body);
        body = form;
      } else {
        body = typeof c.body === 'string' ? c.body : JSON.stringify(c.body);
        headers['Content-Type'] = 'application/json';
      }
    }
    const res = await fetch(`${server.url}${url}`, {
      method: route.method,
      headers,
      body,
      signal: controller.signal,
    });
    const text = await res.text().catch(() => '');
    return { status: res.status, text };
  } catch (err) {
    return { status: -1, text: `transport: ${(err as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}

/** Every table's rows, hashed (the user's session columns excepted: logout/login rotate them). */
async function snapshot(): Promise<Record<string, string>> {
  const db = server.ctx.db.kysely;
  const tables =
    server.ctx.db.dialect === 'postgres'
      ? await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema()`.execute(db)
      : await sql<{ name: string }>`select name from sqlite_master
          where type = 'table' and name not like 'sqlite_%'`.execute(db);
  const out: Record<string, string> = {};
  for (const { name } of tables.rows) {
    if (name === 'kv' || name.startsWith('kysely_')) continue;
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
    const cleaned = rows.rows.map((r) => {
      if (name !== 'user') return r;
      const { access_token: _a, last_login_time: _l, update_time: _u, update_date: _d, ...rest } = r;
      return rest;
    });
    const text = JSON.stringify(cleaned.map((r) => JSON.stringify(r)).sort(), (_k, v: unknown) =>
      Buffer.isBuffer(v) ? v.toString('base64') : typeof v === 'bigint' ? v.toString() : v,
    );
    out[name] = `${rows.rows.length}:${crypto.createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
  }
  return out;
}

beforeAll(async () => {
  server = await startTestServer({ LOGIN_RATE_LIMIT: '100000' });
  user = await newUser(server, 'fuzz');
  ids.kb = await createKb(server, user.token);
  const [doc] = await uploadDocs(server, user.token, ids.kb, [
    { name: 'fuzz.txt', data: 'some words to find' },
  ]);
  ids.doc = doc.id;
  const dialog = await call<{ id: string }>(server, '/v1/dialog/set', {
    token: user.token,
    body: { kb_ids: [ids.kb], prompt_config: { system: 'Use {knowledge}', parameters: [] } },
  });
  ids.dialog = (dialog.body.data as { id: string }).id;
  const key = await call<{ token: string }>(server, '/v1/system/new_token', { token: user.token, body: {} });
  apiKey = (key.body.data as { token: string }).token;
});
afterAll(async () => server.close());

describe('fuzz over every /v1 route', () => {
  it('never answers 500 and never changes data on bad input', { timeout: 240_000 }, async () => {
    const failures: string[] = [];
    let requests = 0;
    const accepted = new Set<string>();
    for (const route of allRoutes) {
      const key = `${route.method} ${route.path}`;
      const cases = casesOf(route);
      for (let i = 0; i < cases.length; i += 4) {
        const batch = cases.slice(i, i + 4);
        const before = await snapshot();
        const answers = await Promise.all(batch.map((c) => send(route, c)));
        let anyAccepted = false;
        answers.forEach((a, j) => {
          requests += 1;
          const where = `${key} [${batch[j].label}]`;
          if (/^\{"code":0[,}]/.test(a.text) || (a.status === 200 && !a.text.startsWith('{')))
            anyAccepted = true;
          if (a.status >= 500 && key !== 'GET /v1/system/healthz')
            failures.push(`${where} → HTTP ${a.status} ${a.text.slice(0, 120)}`);
          else if (a.status === -1) failures.push(`${where} → ${a.text}`);
          else if (/Something went wrong on the server/.test(a.text))
            failures.push(`${where} → unexpected-error envelope`);
        });
        if (anyAccepted) accepted.add(key);
        if (ACTS_WITHOUT_INPUT.has(key)) {
          if (key.endsWith('/logout')) {
            const again = await call(server, '/v1/user/login', {
              body: { email: user.email, password: user.password },
            });
            user.token = again.headers.get('authorization') as string;
          }
          continue;
        }
        // A refused request must leave everything as it was; an accepted one (a fuzzed value that
        // happens to be valid, e.g. a string for a string field) may write.
        if (anyAccepted) continue;
        const after = await snapshot();
        const changed = Object.keys({ ...before, ...after }).filter((t) => before[t] !== after[t]);
        if (changed.length > 0)
          failures.push(
            `${key} [${batch.map((b) => b.label).join(' | ')}] refused but changed ${changed.join(', ')}`,
          );
      }
    }
    console.log(
      `fuzz: ${requests} requests over ${allRoutes.length} routes; ${accepted.size} routes accepted some fuzzed input`,
    );
    expect(requests).toBeGreaterThan(allRoutes.length * 5);
    expect(failures).toEqual([]);
  });
});

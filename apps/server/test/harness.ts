import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../src/config.js';
import type { ServerContext } from '../src/modules/context.js';
import { closeRoot, createRoot } from '../src/root.js';
import { buildApp } from '../src/http/app.js';
import { watchViolations } from './contract-violations.js';

/**
 * Starts the real app on a temp data dir and a free port. With TEST_DATABASE_URL set to a
 * PostgreSQL server, each app gets a fresh database of its own (dropped on close). The contract
 * check is on: an answer outside its route's `data` schema fails the test that caused it.
 */
export interface TestServer {
  url: string;
  ctx: ServerContext;
  app: FastifyInstance;
  dataDir: string;
  close(): Promise<void>;
}

async function createPgDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `lectern_t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-test-'));
  const pgBase = process.env.TEST_DATABASE_URL;
  const pgDb = pgBase ? await createPgDatabase(pgBase) : undefined;
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    LECTERN_DATA_DIR: dataDir,
    LECTERN_SECRET_KEY: 'test-secret-key',
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    MODEL_VERIFY: '0',
    // Stand-ins listen on 127.0.0.1: let the outbound guard reach them (tests of the guard pass '').
    LECTERN_SSRF_ALLOW: '127.0.0.1,::1,localhost',
    // Every JSON answer is held against the route contract; a mismatch fails the test (contract-setup.ts).
    LECTERN_CONTRACT_CHECK: '1',
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...env,
  });
  const ctx = await createRoot(config);
  const app = await buildApp(ctx);
  if (app.contractCheck) watchViolations(app.contractCheck.violations);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    ctx,
    app,
    dataDir,
    async close() {
      await app.close();
      await closeRoot(ctx);
      if (pgDb) await pgDb.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: { code: number; message: string; data?: T } & Record<string, unknown>;
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  rawBody?: string;
}

/** One HTTP call to the test server; JSON in, JSON out. */
export async function call<T = unknown>(
  server: TestServer,
  route: string,
  opts: CallOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.Authorization = opts.token;
  let body: string | undefined;
  if (opts.rawBody !== undefined) {
    body = opts.rawBody;
    headers['Content-Type'] ??= 'application/json';
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(`${server.url}${route}`, {
    method: opts.method ?? (body !== undefined ? 'POST' : 'GET'),
    headers,
    body,
  });
  const text = await res.text();
  let parsed: ApiResponse<T>['body'];
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { code: -1, message: text };
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

let counter = 0;

export interface TestUser {
  token: string;
  id: string;
  email: string;
  password: string;
  nickname: string;
}

/** Registers a fresh user; the register answer already carries a session token. */
export async function newUser(server: TestServer, nickname = 'tester'): Promise<TestUser> {
  counter += 1;
  const email = `${nickname}${counter}.${Math.random().toString(36).slice(2, 7)}@example.com`;
  const password = 'correct-horse-9';
  const res = await call<{ id: string }>(server, '/v1/user/register', {
    body: { nickname, email, password },
  });
  if (res.body.code !== 0) throw new Error(`register failed: ${res.body.message}`);
  return {
    token: res.headers.get('authorization') as string,
    id: (res.body.data as { id: string }).id,
    email,
    password,
    nickname,
  };
}

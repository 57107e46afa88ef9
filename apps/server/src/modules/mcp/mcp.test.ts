/**
 * `/v1/mcp_server` (API.md §16) over HTTP against a local MCP server built with the official SDK,
 * over streamable HTTP and SSE: CRUD, import/export, tool listing and calls, the tool cache, and the
 * refusals (bad type, name, url, unreachable or blocked servers, other tenants' ids).
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startMcpStandin, type McpStandin } from '../../../test/standins/index.js';

let server: TestServer;
let mcp: McpStandin;
let owner: TestUser;
let stranger: TestUser;
let deadUrl = '';

type Row = {
  id: string;
  name: string;
  variables: { tools?: Record<string, { enabled?: boolean }> };
} & Record<string, unknown>;

/** A port nothing listens on. */
async function closedPortUrl(): Promise<string> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}/mcp`;
}

beforeAll(async () => {
  mcp = await startMcpStandin();
  server = await startTestServer();
  owner = await newUser(server, 'mcpowner');
  stranger = await newUser(server, 'mcpstranger');
  deadUrl = await closedPortUrl();
});
afterAll(async () => {
  await server?.close();
  await mcp?.close();
});

const post = <T = unknown>(route: string, body: unknown, user: TestUser = owner) =>
  call<T>(server, `/v1/mcp_server/${route}`, { token: user.token, body });

async function create(body: Record<string, unknown>, user: TestUser = owner): Promise<Row> {
  const res = await post<Row>('create', body, user);
  if (res.body.code !== 0) throw new Error(`${res.body.code} ${res.body.message}`);
  return res.body.data!;
}

describe('create, detail, list, update', () => {
  let http: Row;
  let sse: Row;
  beforeAll(async () => {
    http = await create({
      name: 'Weather HTTP',
      url: mcp.streamableUrl,
      server_type: 'streamable-http',
      description: 'stand-in',
      headers: { Authorization: 'Bearer ${token}', 'X-Blank': '' },
      variables: { token: 's3cret' },
    });
    sse = await create({ name: 'Weather SSE', url: mcp.sseUrl, server_type: 'sse' });
  });

  it('stores the server with its tools listed over either transport and the headers filled in', async () => {
    expect(http).toMatchObject({
      name: 'Weather HTTP',
      server_type: 'streamable-http',
      tenant_id: owner.id,
      description: 'stand-in',
      headers: { Authorization: 'Bearer ${token}', 'X-Blank': '' },
      variables: { token: 's3cret' },
    });
    expect(Object.keys(http.variables.tools!).sort()).toEqual(['add', 'broken', 'lookup']);
    expect(http.variables.tools!.lookup).toMatchObject({
      name: 'lookup',
      title: 'Look up',
      description: 'Looks a query up',
      enabled: true,
      inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
    });
    expect(Object.keys(sse.variables.tools!).sort()).toEqual(['add', 'broken', 'lookup']);
    const seen = mcp.requests.filter((r) => r.path === '/mcp').map((r) => r.headers);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((h) => h.authorization === 'Bearer s3cret' && !('x-blank' in h))).toBe(true);
    expect(mcp.requests.some((r) => r.path === '/sse' && r.method === 'GET')).toBe(true);
    expect(mcp.requests.some((r) => r.path === '/messages' && r.method === 'POST')).toBe(true);
  });

  it('detail: own server; unknown or foreign id → code 404, data null', async () => {
    const own = await call<Row>(server, `/v1/mcp_server/detail?mcp_id=${http.id}`, { token: owner.token });
    expect(own.body).toMatchObject({ code: 0, data: { id: http.id, url: mcp.streamableUrl } });
    for (const [id, user] of [
      [http.id, stranger],
      ['f'.repeat(32), owner],
    ] as const) {
      const res = await call(server, `/v1/mcp_server/detail?mcp_id=${id}`, { token: user.token });
      expect(res.body).toEqual({
        code: 404,
        message: `Cannot find MCP server ${id} for user ${user.id}`,
        data: null,
      });
    }
    expect((await call(server, '/v1/mcp_server/detail', { token: owner.token })).body.code).toBe(101);
  });

  it('list: own servers only, keywords, order, paging, mcp_ids', async () => {
    const all = await post<{ mcp_servers: Row[]; total: number }>('list', {});
    expect(all.body.data!.total).toBe(2);
    expect(all.body.data!.mcp_servers.map((s) => s.name)).toEqual(['Weather SSE', 'Weather HTTP']);
    const asc = await post<{ mcp_servers: Row[] }>('list?orderby=name&desc=false&page=1&page_size=1', {});
    expect(asc.body.data!.mcp_servers.map((s) => s.name)).toEqual(['Weather HTTP']);
    const kw = await post<{ mcp_servers: Row[]; total: number }>('list?keywords=sse', {});
    expect(kw.body.data).toMatchObject({ total: 1, mcp_servers: [{ id: sse.id }] });
    const ids = await post<{ total: number }>('list', { mcp_ids: [http.id] });
    expect(ids.body.data!.total).toBe(1);
    expect((await post<{ total: number }>('list', {}, stranger)).body.data!.total).toBe(0);
  });

  it('update: changes fields, refreshes the tools keeping enabled switches; refusals', async () => {
    const cached = await post('cache_tools', {
      mcp_id: sse.id,
      tools: [{ name: 'lookup', enabled: false }, { name: 'add' }],
    });
    expect(cached.body).toEqual({ code: 0, message: 'success', data: true });
    const res = await post<Row>('update', { mcp_id: sse.id, name: 'Weather SSE 2', description: 'renamed' });
    expect(res.body.data).toMatchObject({ name: 'Weather SSE 2', description: 'renamed', url: mcp.sseUrl });
    expect(res.body.data!.variables.tools!.lookup.enabled).toBe(false);
    expect(res.body.data!.variables.tools!.broken.enabled).toBe(true);
    expect((await post('update', { mcp_id: sse.id, name: 'Weather HTTP' })).body).toMatchObject({
      code: 102,
      message: 'Duplicated MCP server name.',
    });
    expect((await post('update', { mcp_id: sse.id, server_type: 'websocket' })).body.message).toBe(
      'Unsupported MCP server type.',
    );
    expect((await post('update', { mcp_id: sse.id, url: 'ftp://x' })).body.message).toBe('Invalid url.');
    expect((await post('update', { mcp_id: sse.id, name: 'x' }, stranger)).body).toMatchObject({
      code: 102,
      message: `Cannot find MCP server ${sse.id} for user ${stranger.id}`,
    });
  });

  it('list_tools: live list with enabled from the cache; test_tool calls a tool', async () => {
    const res = await post<Record<string, Array<{ name: string; enabled: boolean }>>>('list_tools', {
      mcp_ids: [http.id, sse.id],
    });
    expect(res.body.code).toBe(0);
    expect(res.body.data![http.id].map((t) => t.name).sort()).toEqual(['add', 'broken', 'lookup']);
    expect(res.body.data![sse.id].find((t) => t.name === 'lookup')!.enabled).toBe(false);
    for (const id of [http.id, sse.id]) {
      const t = await post('test_tool', { mcp_id: id, tool_name: 'add', arguments: { a: 2, b: 40 } });
      expect(t.body).toEqual({ code: 0, message: 'success', data: '42' });
    }
    const broken = await post('test_tool', { mcp_id: http.id, tool_name: 'broken', arguments: {} });
    expect(broken.body.code).toBe(105);
    expect(broken.body.message).toMatch(/^Test MCP error: MCP server error: .*no data today/);
    expect((await post('test_tool', { mcp_id: http.id, tool_name: '', arguments: {} })).body).toMatchObject({
      code: 102,
      message: 'Require provide tool name and arguments.',
    });
    expect(
      (await post('test_tool', { mcp_id: http.id, tool_name: 'add', arguments: 'x' })).body.message,
    ).toBe('Require provide tool name and arguments.');
    expect((await post('test_tool', { mcp_id: http.id, tool_name: 'add' })).body).toMatchObject({
      code: 101,
      message: 'required argument are missing: arguments; ',
    });
    expect(
      (await post('test_tool', { mcp_id: http.id, tool_name: 'add', arguments: {} }, stranger)).body.code,
    ).toBe(102);
    expect((await post('list_tools', { mcp_ids: [http.id] }, stranger)).body.message).toBe(
      `Cannot find MCP server ${http.id} for user ${stranger.id}`,
    );
    expect((await post('list_tools', { mcp_ids: [] })).body.message).toBe('No MCP server IDs provided.');
  });
});

describe('bad input', () => {
  it('create: wrong type, bad name, bad url, duplicate name, missing fields', async () => {
    const base = { name: 'Bad', url: mcp.streamableUrl, server_type: 'streamable-http' };
    expect((await post('create', { ...base, server_type: 'stdio' })).body).toMatchObject({
      code: 102,
      message: 'Unsupported MCP server type.',
    });
    expect((await post('create', { ...base, name: 'n'.repeat(256) })).body.message).toBe(
      'Invalid MCP name or length is 256 which is large than 255.',
    );
    expect((await post('create', { ...base, name: '' })).body.message).toBe(
      'Invalid MCP name or length is 0 which is large than 255.',
    );
    expect((await post('create', { ...base, url: 'not a url' })).body.message).toBe('Invalid url.');
    await create({ ...base, name: 'Twin' });
    expect((await post('create', { ...base, name: 'Twin' })).body.message).toBe(
      'Duplicated MCP server name.',
    );
    // the same name in another tenant is fine
    expect((await post('create', { ...base, name: 'Twin' }, stranger)).body.code).toBe(0);
    expect((await post('create', { name: 'x' })).body).toMatchObject({
      code: 101,
      message: 'required argument are missing: url,server_type; ',
    });
    expect((await post('create', { ...base, headers: 'x' })).body.code).toBe(100);
  });

  it('an unreachable server is stored without tools; listing it answers 105', async () => {
    const dead = await create({ name: 'Dead', url: deadUrl, server_type: 'streamable-http', timeout: 3 });
    expect(dead.variables.tools).toEqual({});
    const res = await post('list_tools', { mcp_ids: [dead.id], timeout: 3 });
    expect(res.body.code).toBe(105);
    expect(res.body.message).toMatch(/^MCP list tools error: Connection failed/);
    const t = await post('test_tool', { mcp_id: dead.id, tool_name: 'add', arguments: {}, timeout: 3 });
    expect(t.body.code).toBe(105);
  });

  it('test_mcp: lists an unsaved server; bad url, type, unreachable and blocked hosts', async () => {
    const ok = await post<Array<{ name: string; enabled: boolean }>>('test_mcp', {
      url: mcp.sseUrl,
      server_type: 'sse',
    });
    expect(ok.body.data!.map((t) => [t.name, t.enabled]).sort()).toEqual([
      ['add', true],
      ['broken', true],
      ['lookup', true],
    ]);
    expect((await post('test_mcp', { url: 'nope', server_type: 'sse' })).body).toMatchObject({
      code: 102,
      message: 'Invalid MCP url.',
    });
    expect((await post('test_mcp', { url: mcp.sseUrl, server_type: 'ws' })).body.message).toBe(
      'Unsupported MCP server type.',
    );
    const dead = await post('test_mcp', { url: deadUrl, server_type: 'streamable-http', timeout: 3 });
    expect(dead.body).toMatchObject({ code: 105, message: expect.stringMatching(/^Test MCP error: /) });
    // a private address outside LECTERN_SSRF_ALLOW is refused by the outbound guard
    const blocked = await post('test_mcp', {
      url: 'http://10.255.255.1/mcp',
      server_type: 'sse',
      timeout: 3,
    });
    expect(blocked.body.code).toBe(105);
    expect(blocked.body.message).toMatch(/private|not allowed|blocked/i);
    const anon = await call(server, '/v1/mcp_server/test_mcp', {
      body: { url: mcp.sseUrl, server_type: 'sse' },
    });
    expect(anon.status).toBe(401);
  });
});

describe('import, export, rm', () => {
  it('exports in the mcpServers format and imports it back under new names', async () => {
    const a = await create({
      name: 'Exported',
      url: mcp.streamableUrl,
      server_type: 'streamable-http',
      headers: { Authorization: 'Bearer ${authorization_token}' },
      variables: { authorization_token: 's3cret' },
    });
    const exp = await post<{ mcpServers: Record<string, Record<string, unknown>> }>('export', {
      mcp_ids: [a.id],
    });
    expect(exp.body.data!.mcpServers.Exported).toMatchObject({
      type: 'streamable-http',
      url: mcp.streamableUrl,
      name: 'Exported',
      authorization_token: 's3cret',
      headers: { Authorization: 'Bearer ${authorization_token}' },
    });
    expect(Object.keys(exp.body.data!.mcpServers.Exported.tools as object).sort()).toEqual([
      'add',
      'broken',
      'lookup',
    ]);
    const imp = await post<{ results: Array<Record<string, unknown>> }>('import', {
      mcpServers: {
        ...exp.body.data!.mcpServers,
        Plain: { type: 'sse', url: mcp.sseUrl, authorization_token: 'tok-2' },
        Broken: { type: 'stdio', url: mcp.sseUrl },
        NoUrl: { type: 'sse' },
      },
    });
    const [exported, plain, broken, noUrl] = imp.body.data!.results;
    expect(exported).toMatchObject({
      server: 'Exported',
      success: true,
      action: 'created',
      new_name: 'Exported_0',
    });
    expect(plain).toMatchObject({ server: 'Plain', success: true, new_name: 'Plain' });
    expect(broken).toEqual({ server: 'Broken', success: false, message: 'Unsupported MCP server type.' });
    expect(noUrl).toEqual({ server: 'NoUrl', success: false, message: 'Invalid url.' });
    const again = await post<{ results: Array<{ new_name: string }> }>('import', {
      mcpServers: { Exported: exp.body.data!.mcpServers.Exported },
    });
    expect(again.body.data!.results[0].new_name).toBe('Exported_1');
    const plainRow = await call<Row>(server, `/v1/mcp_server/detail?mcp_id=${plain.id}`, {
      token: owner.token,
    });
    expect(plainRow.body.data).toMatchObject({
      headers: { Authorization: 'Bearer ${authorization_token}' },
      variables: { authorization_token: 'tok-2' },
    });
    expect(Object.keys(plainRow.body.data!.variables.tools!)).toHaveLength(3);
    expect((await post('import', { mcpServers: {} })).body).toMatchObject({
      code: 102,
      message: 'No MCP servers provided.',
    });
    expect((await post('export', { mcp_ids: [a.id] }, stranger)).body.code).toBe(102);
    expect((await post('export', { mcp_ids: [] })).body.message).toBe('No MCP server IDs provided.');
  });

  it('rm: foreign ids refuse the whole request; own ids go', async () => {
    const a = await create({ name: 'Doomed', url: mcp.sseUrl, server_type: 'sse' });
    const res = await post('rm', { mcp_ids: [a.id] }, stranger);
    expect(res.body).toMatchObject({
      code: 102,
      message: `Cannot find MCP server ${a.id} for user ${stranger.id}`,
    });
    expect((await post('rm', { mcp_ids: [] })).body.message).toBe('No MCP server IDs provided.');
    expect((await post('rm', {})).body.code).toBe(101);
    expect((await post('rm', { mcp_ids: [a.id] })).body).toEqual({ code: 0, message: 'success', data: true });
    const gone = await call(server, `/v1/mcp_server/detail?mcp_id=${a.id}`, { token: owner.token });
    expect(gone.body.code).toBe(404);
  });
});

/**
 * `/v1/mcp_server` (API.md §16): a tenant's MCP servers — CRUD, import/export in the `mcpServers`
 * format, and the live calls (list tools, test a tool, test a server before saving it).
 */
import type { FastifyInstance } from 'fastify';
import { contract, RetCode } from '@lectern/shared';
import { callMcpTool, mcpConfigOf, withMcpClient } from '../../agent-tools/index.js';
import type { AppContext } from '../../context.js';
import { toJson } from '../../db/json.js';
import { authOf } from '../../http/auth.js';
import { ApiError, errors, ok } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { outboundPolicyOf } from '../../net/index.js';
import { accessScopeOf, loadMcpServer, loadMcpServers } from '../../policy/index.js';
import { importServers } from './import.js';
import { cachedTools, presentExportEntry, presentMcpServer, presentTool } from './presenter.js';
import * as mcp from './service.js';

const c = contract.mcp;
const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

/** A non-empty list of ids, else 102 "No MCP server IDs provided.". */
function idsOf(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) throw errors.data('No MCP server IDs provided.');
  if (!value.every((v) => typeof v === 'string')) throw errors.exception('`mcp_ids` items must be strings.');
  return value as string[];
}

export async function mcpRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const db = ctx.db.kysely;
  const scopeOf = (userId: string) => accessScopeOf(db, userId);

  app.post('/v1/mcp_server/list', async (req) => {
    const q = validate(c.list.query, req.query);
    const b = validate(c.list.body, req.body);
    const { rows, total } = await mcp.listServers(ctx, authOf(req).user.id, q, b.mcp_ids);
    return ok({ mcp_servers: rows.map(presentMcpServer), total });
  });

  app.get('/v1/mcp_server/detail', async (req) => {
    const q = validate(c.detail.query, req.query);
    const userId = authOf(req).user.id;
    try {
      return ok(presentMcpServer(await loadMcpServer(db, await scopeOf(userId), q.mcp_id, 'read')));
    } catch (err) {
      if (err instanceof ApiError && err.code === RetCode.DATA_ERROR)
        throw new ApiError(RetCode.NOT_FOUND, err.message, null);
      throw err;
    }
  });

  app.post('/v1/mcp_server/create', async (req) => {
    const body = validate(c.create.body, req.body);
    return ok(presentMcpServer(await mcp.createServer(ctx, authOf(req).user.id, body)));
  });

  app.post('/v1/mcp_server/update', async (req) => {
    const body = validate(c.update.body, req.body);
    const row = await loadMcpServer(db, await scopeOf(authOf(req).user.id), body.mcp_id, 'manage');
    return ok(presentMcpServer(await mcp.updateServer(ctx, row, body)));
  });

  app.post('/v1/mcp_server/rm', async (req) => {
    const body = validate(c.rm.body, req.body);
    const scope = await scopeOf(authOf(req).user.id);
    await mcp.removeServers(ctx, await loadMcpServers(db, scope, idsOf(body.mcp_ids), 'manage'));
    return ok(true as const);
  });

  app.post('/v1/mcp_server/import', async (req) => {
    const body = validate(c.import.body, req.body);
    if (!isObject(body.mcpServers) || Object.keys(body.mcpServers).length === 0)
      throw errors.data('No MCP servers provided.');
    return ok({ results: await importServers(ctx, authOf(req).user.id, body.mcpServers, body.timeout) });
  });

  app.post('/v1/mcp_server/export', async (req) => {
    const body = validate(c.export.body, req.body);
    const rows = await loadMcpServers(db, await scopeOf(authOf(req).user.id), idsOf(body.mcp_ids), 'read');
    return ok({ mcpServers: Object.fromEntries(rows.map((r) => [r.name, presentExportEntry(r)])) });
  });

  app.post('/v1/mcp_server/list_tools', async (req) => {
    const body = validate(c.listTools.body, req.body);
    const rows = await loadMcpServers(db, await scopeOf(authOf(req).user.id), idsOf(body.mcp_ids), 'read');
    const lists = await Promise.all(
      rows.map(async (row) => {
        try {
          const tools = await mcp.fetchTools(ctx, mcpConfigOf(row), body.timeout);
          return [row.id, tools.map((t) => presentTool(t, cachedTools(row)))] as const;
        } catch (err) {
          throw mcp.connectionError('MCP list tools error', err);
        }
      }),
    );
    return ok(Object.fromEntries(lists));
  });

  app.post('/v1/mcp_server/test_tool', async (req) => {
    const body = validate(c.testTool.body, req.body);
    const row = await loadMcpServer(db, await scopeOf(authOf(req).user.id), body.mcp_id, 'read');
    const name = typeof body.tool_name === 'string' ? body.tool_name.trim() : '';
    if (!name || !isObject(body.arguments)) throw errors.data('Require provide tool name and arguments.');
    const args = body.arguments;
    const limit = mcp.timeoutMs(body.timeout);
    try {
      const text = await withMcpClient(
        mcpConfigOf(row),
        outboundPolicyOf(ctx.config),
        { timeoutMs: limit },
        (client) => callMcpTool(client, name, args, { timeoutMs: limit }),
      );
      return ok(text);
    } catch (err) {
      throw mcp.connectionError('Test MCP error', err);
    }
  });

  app.post('/v1/mcp_server/cache_tools', async (req) => {
    const body = validate(c.cacheTools.body, req.body);
    const row = await loadMcpServer(db, await scopeOf(authOf(req).user.id), body.mcp_id, 'manage');
    await mcp.cacheTools(ctx, row, body.tools);
    return ok(true as const);
  });

  app.post('/v1/mcp_server/test_mcp', async (req) => {
    const body = validate(c.testMcp.body, req.body);
    const url = mcp.serverUrlOf(body.url, 'Invalid MCP url.');
    const server_type = mcp.serverTypeOf(body.server_type);
    const config = mcpConfigOf({
      url,
      server_type,
      headers: toJson(body.headers ?? {}),
      variables: toJson(body.variables ?? {}),
    });
    try {
      return ok((await mcp.fetchTools(ctx, config, body.timeout)).map((t) => presentTool(t)));
    } catch (err) {
      throw mcp.connectionError('Test MCP error', err);
    }
  });
}

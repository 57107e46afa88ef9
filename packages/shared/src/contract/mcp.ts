/** `/v1/mcp_server` — MCP servers (API.md §16, AGENTS.md §11). */
import { z } from 'zod';
import { done, jsonObject, jsonValue, timeFields } from './common.js';
import { route, routeChecked } from './route.js';

export const MCP_SERVER_TYPES = ['sse', 'streamable-http'] as const;
export type McpServerType = (typeof MCP_SERVER_TYPES)[number];

/** A tool as an MCP server lists it (the SDK's Tool), with the `enabled` switch of the cache. */
export const mcpToolSchema = z.looseObject({
  name: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  inputSchema: jsonObject,
  outputSchema: jsonObject.nullable(),
  annotations: jsonObject.nullable(),
  meta: jsonObject.nullable(),
  enabled: z.boolean(),
});
export type McpTool = z.infer<typeof mcpToolSchema>;

/** A stored MCP server; `variables.tools` holds the cached tool list (name → tool). */
export const mcpServerSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  tenant_id: z.string(),
  url: z.string(),
  server_type: z.enum(MCP_SERVER_TYPES),
  description: z.string().nullable(),
  variables: jsonObject,
  headers: jsonObject,
  ...timeFields,
});
export type McpServer = z.infer<typeof mcpServerSchema>;

/** One entry of the `mcpServers` JSON format (import and export). */
export const mcpServersEntrySchema = z.looseObject({
  type: z.string().optional(),
  url: z.string().optional(),
  name: z.string().optional(),
  authorization_token: z.string().optional(),
  headers: jsonObject.optional(),
  tools: jsonObject.optional(),
});
export type McpServersEntry = z.infer<typeof mcpServersEntrySchema>;

export const mcpImportResultSchema = z.strictObject({
  server: z.string(),
  success: z.boolean(),
  action: z.literal('created').optional(),
  id: z.string().optional(),
  new_name: z.string().optional(),
  message: z.string().optional(),
});

const pageNumber = z.coerce.number<number | string>().int().min(0).optional();
/** Seconds to wait for the server (default 10). */
const timeout = z.number().positive().max(300).optional();

// Field values API.md answers with its own 102 messages are checked by the service.
const serverFields = {
  description: z.string().nullable().optional(),
  headers: z.record(z.string(), jsonValue).nullable().optional(),
  variables: z.record(z.string(), jsonValue).nullable().optional(),
  timeout,
};

const idList = routeChecked<string[]>({ required: true });

export const mcpContract = {
  list: route({
    method: 'POST',
    path: '/v1/mcp_server/list',
    auth: 'login',
    query: z.object({
      keywords: z.string().optional(),
      page: pageNumber,
      page_size: pageNumber,
      orderby: z.string().optional(),
      desc: z.string().optional(),
    }),
    body: z.object({ mcp_ids: z.array(z.string()).nullable().optional() }),
    data: z.strictObject({ mcp_servers: z.array(mcpServerSchema), total: z.number() }),
  }),
  detail: route({
    method: 'GET',
    path: '/v1/mcp_server/detail',
    auth: 'login',
    query: z.object({ mcp_id: z.string() }),
    data: mcpServerSchema,
  }),
  create: route({
    method: 'POST',
    path: '/v1/mcp_server/create',
    auth: 'login',
    body: z.object({
      name: routeChecked<string>({ required: true }),
      url: routeChecked<string>({ required: true }),
      server_type: routeChecked<McpServerType>({ required: true }),
      ...serverFields,
    }),
    data: mcpServerSchema,
  }),
  update: route({
    method: 'POST',
    path: '/v1/mcp_server/update',
    auth: 'login',
    body: z.object({
      mcp_id: z.string(),
      name: routeChecked<string>().optional(),
      url: routeChecked<string>().optional(),
      server_type: routeChecked<McpServerType>().optional(),
      ...serverFields,
    }),
    data: mcpServerSchema,
  }),
  rm: route({
    method: 'POST',
    path: '/v1/mcp_server/rm',
    auth: 'login',
    body: z.object({ mcp_ids: idList }),
    data: done,
  }),
  import: route({
    method: 'POST',
    path: '/v1/mcp_server/import',
    auth: 'login',
    body: z.object({
      mcpServers: routeChecked<Record<string, McpServersEntry>>({ required: true }),
      timeout,
    }),
    data: z.strictObject({ results: z.array(mcpImportResultSchema) }),
  }),
  export: route({
    method: 'POST',
    path: '/v1/mcp_server/export',
    auth: 'login',
    body: z.object({ mcp_ids: idList }),
    data: z.strictObject({ mcpServers: z.record(z.string(), mcpServersEntrySchema) }),
  }),
  listTools: route({
    method: 'POST',
    path: '/v1/mcp_server/list_tools',
    auth: 'login',
    body: z.object({ mcp_ids: idList, timeout }),
    data: z.record(z.string(), z.array(mcpToolSchema)),
  }),
  testTool: route({
    method: 'POST',
    path: '/v1/mcp_server/test_tool',
    auth: 'login',
    body: z.object({
      mcp_id: z.string(),
      tool_name: routeChecked<string>({ required: true }),
      arguments: routeChecked<Record<string, unknown>>({ required: true }),
      timeout,
    }),
    /** The tool's text result. */
    data: z.string(),
  }),
  cacheTools: route({
    method: 'POST',
    path: '/v1/mcp_server/cache_tools',
    auth: 'login',
    body: z.object({
      mcp_id: z.string(),
      tools: routeChecked<Array<Partial<McpTool> & { name: string }>>({ required: true }),
    }),
    data: done,
  }),
  testMcp: route({
    method: 'POST',
    path: '/v1/mcp_server/test_mcp',
    auth: 'login',
    body: z.object({
      url: routeChecked<string>({ required: true }),
      server_type: routeChecked<McpServerType>({ required: true }),
      headers: serverFields.headers,
      variables: serverFields.variables,
      timeout,
    }),
    data: z.array(mcpToolSchema),
  }),
};

/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the route contract (the same zod schemas
 * the server validates with and the tests hold answers against): request query/body/form schemas as
 * the client sends them, success answers in their envelope, streams and bytes by content type.
 */
import { z } from 'zod';
import type { RouteContract } from './route.js';

type JsonSchema = Record<string, unknown>;

/** zod → JSON Schema; a shape JSON Schema cannot say (a route-checked field) becomes `{}` (any). */
function schemaOf(schema: z.ZodType | undefined, io: 'input' | 'output'): JsonSchema {
  if (!schema) return {};
  try {
    const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
    delete out.$schema;
    return out;
  } catch {
    return {};
  }
}

const ENVELOPE_DESCRIPTION = 'code 0 = success; any other code carries `message` (API.md §1.2–§1.3)';

function envelope(data: JsonSchema, publicApi: boolean): JsonSchema {
  return {
    type: 'object',
    description: ENVELOPE_DESCRIPTION,
    properties: {
      code: { type: 'integer', const: 0 },
      ...(publicApi ? {} : { message: { type: 'string' } }),
      data,
    },
    required: ['code', 'data'],
  };
}

function successContent(r: RouteContract): Record<string, { schema: JsonSchema }> {
  const publicApi = r.path.startsWith('/api/');
  switch (r.kind) {
    case 'json':
      return { 'application/json': { schema: envelope(schemaOf(r.data, 'output'), publicApi) } };
    case 'plain':
      return { 'application/json': { schema: schemaOf(r.data, 'output') } };
    case 'sse':
      return {
        'text/event-stream': {
          schema: { description: 'data: events', ...envelope(schemaOf(r.event, 'output'), publicApi) },
        },
        ...(r.data
          ? { 'application/json': { schema: envelope(schemaOf(r.data, 'output'), publicApi) } }
          : {}),
      };
    case 'binary':
      return {
        'application/octet-stream': {
          schema: { type: 'string', format: 'binary', description: r.contentType },
        },
      };
  }
}

function queryParameters(r: RouteContract): JsonSchema[] {
  const pathParams = [...r.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query = schemaOf(r.query, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  const queryParams = Object.entries(query.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: (query.required ?? []).includes(name),
    schema,
  }));
  return [...pathParams, ...queryParams];
}

function requestBody(r: RouteContract): JsonSchema | undefined {
  if (r.form) {
    const fields = schemaOf(r.form.fields, 'input') as { properties?: Record<string, JsonSchema> };
    const properties = { ...(fields.properties ?? {}) };
    if (r.form.file) properties[r.form.file] = { type: 'array', items: { type: 'string', format: 'binary' } };
    return { content: { 'multipart/form-data': { schema: { type: 'object', properties } } } };
  }
  if (r.body) return { content: { 'application/json': { schema: schemaOf(r.body, 'input') } } };
  return undefined;
}

const SECURITY: Record<RouteContract['auth'], JsonSchema[]> = {
  login: [{ session: [] }, { apiKey: [] }],
  apiKey: [{ apiKey: [] }],
  beta: [{ apiKey: [] }],
  public: [],
};

export interface OpenApiOptions {
  title: string;
  version: string;
  serverUrl?: string;
}

export function buildOpenApi(routes: RouteContract[], opts: OpenApiOptions): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const r of routes) {
    const path = r.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const op: JsonSchema = {
      operationId: `${r.method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+/g, '_')}`,
      tags: [path.split('/')[path.startsWith('/api/') ? 3 : 2] ?? 'misc'],
      security: SECURITY[r.auth],
      parameters: queryParameters(r),
      responses: {
        '200': { description: 'success (errors use the same envelope)', content: successContent(r) },
      },
    };
    const body = requestBody(r);
    if (body) op.requestBody = body;
    (paths[path] ??= {})[r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: opts.title, version: opts.version },
    ...(opts.serverUrl ? { servers: [{ url: opts.serverUrl }] } : {}),
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'API key (`lectern-…`) from /v1/system/new_token',
        },
        session: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'session token of /v1/user/login',
        },
      },
    },
    paths,
  };
}

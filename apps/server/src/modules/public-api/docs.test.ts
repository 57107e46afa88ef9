import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '@lectern/shared';
import { call, startTestServer, type TestServer } from '../../../test/harness.js';

describe('API reference: /api/v1/openapi.json and /api/v1/docs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  it('serves an OpenAPI 3.1 document with every contract route and its schemas', async () => {
    const res = await call<never>(server, '/api/v1/openapi.json');
    const doc = res.body as unknown as {
      openapi: string;
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    const ops = Object.entries(doc.paths).flatMap(([p, o]) =>
      Object.keys(o).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(ops).toHaveLength(allRoutes.length);
    const create = doc.paths['/api/v1/datasets'].post as {
      requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
      security: unknown[];
    };
    expect(Object.keys(create.requestBody.content['application/json'].schema.properties)).toContain(
      'chunk_method',
    );
    expect(create.security).toEqual([{ apiKey: [] }]);
    const chunks = doc.paths['/api/v1/datasets/{dataset_id}/documents/{document_id}/chunks'].get as {
      parameters: Array<{ name: string; in: string }>;
    };
    expect(chunks.parameters.filter((p) => p.in === 'path').map((p) => p.name)).toEqual([
      'dataset_id',
      'document_id',
    ]);
    const upload = doc.paths['/api/v1/datasets/{dataset_id}/documents'].post as {
      requestBody: { content: Record<string, unknown> };
    };
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
  });

  it('serves a readable page with curl examples, without a credential', async () => {
    const res = await fetch(`${server.url}/api/v1/docs`);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    expect(html).toContain('<code>/api/v1/chats_openai/{chat_id}/chat/completions</code>');
    expect(html).toContain('curl -s -X POST $HOST/api/v1/retrieval');
  });
});

/**
 * The API reference (API.md §17 docs): `GET /api/v1/openapi.json` — the OpenAPI 3.1 document built
 * from the shared route contract — and `GET /api/v1/docs`, a readable page of the same routes with
 * curl examples for the main integrator flows. Both public.
 */
import type { FastifyInstance } from 'fastify';
import { allRoutes, buildOpenApi } from '@lectern/shared';
import { productVersion } from '../../version.js';

const esc = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The main flows as curl commands (`$HOST`, `$KEY` from the reader's shell). */
export const CURL_EXAMPLES = `# Create a dataset
curl -s -X POST $HOST/api/v1/datasets -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \\
  -d '{"name": "Manuals", "chunk_method": "naive"}'
# Upload documents, then parse them
curl -s -X POST $HOST/api/v1/datasets/$DATASET/documents -H "Authorization: Bearer $KEY" -F file=@guide.pdf
curl -s -X POST $HOST/api/v1/datasets/$DATASET/chunks -H "Authorization: Bearer $KEY" \\
  -H 'Content-Type: application/json' -d '{"document_ids": ["'$DOC'"]}'
# Retrieve chunks
curl -s -X POST $HOST/api/v1/retrieval -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \\
  -d '{"question": "How do I reset the device?", "dataset_ids": ["'$DATASET'"]}'
# File manager: upload into a folder, then link the file to the dataset as a document
curl -s -X POST $HOST/api/v1/file/upload -H "Authorization: Bearer $KEY" -F parent_id=$FOLDER -F file=@notes.md
curl -s -X POST $HOST/api/v1/file2document/convert -H "Authorization: Bearer $KEY" \\
  -H 'Content-Type: application/json' -d '{"file_ids": ["'$FILE'"], "kb_ids": ["'$DATASET'"]}'
# Create a chat over the dataset and ask it (OpenAI-compatible)
curl -s -X POST $HOST/api/v1/chats -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \\
  -d '{"name": "Support", "dataset_ids": ["'$DATASET'"]}'
curl -s -N -X POST $HOST/api/v1/chats_openai/$CHAT/chat/completions -H "Authorization: Bearer $KEY" \\
  -H 'Content-Type: application/json' \\
  -d '{"model": "any", "messages": [{"role": "user", "content": "How do I reset the device?"}], "stream": true, "extra_body": {"reference": true}}'`;

function page(doc: ReturnType<typeof buildOpenApi>): string {
  const paths = doc.paths as Record<string, Record<string, Record<string, unknown>>>;
  const rows: string[] = [];
  for (const [path, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const params = (op.parameters as Array<{ name: string; in: string; required: boolean }>)
        .map((p) => `${p.in === 'path' ? '' : 'Q '}${esc(p.name)}${p.required ? '*' : ''}`)
        .join(', ');
      const body = op.requestBody as
        | {
            content: Record<
              string,
              { schema: { properties?: Record<string, unknown>; required?: string[] } }
            >;
          }
        | undefined;
      const bodySchema = body ? Object.values(body.content)[0].schema : undefined;
      const fields = Object.keys(bodySchema?.properties ?? {})
        .map((k) => `${esc(k)}${(bodySchema?.required ?? []).includes(k) ? '*' : ''}`)
        .join(', ');
      const auth =
        (op.security as Array<Record<string, unknown>>).map((s) => Object.keys(s)[0]).join(' / ') || 'public';
      rows.push(
        `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${esc(path)}</code></td><td>${auth}</td><td>${params}</td><td>${fields ? `B ${fields}` : ''}</td></tr>`,
      );
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lectern API reference</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;max-width:80rem}td,th{border-bottom:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}pre{background:#f6f6f6;padding:1rem;overflow:auto}</style></head>
<body><h1>Lectern API reference <small>${esc(String((doc.info as { version: string }).version))}</small></h1>
<p>Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1, generated from the route contract). <code>*</code> = required; Q = query string; B = JSON or form body.
Public routes (<code>/api/v1</code>) take <code>Authorization: Bearer &lt;API key&gt;</code> and answer <code>{code, data}</code> / <code>{code, message}</code>.</p>
<h2>Main flows (curl)</h2><pre>${esc(CURL_EXAMPLES)}</pre>
<h2>Routes</h2><table><thead><tr><th>Method</th><th>Path</th><th>Credential</th><th>Parameters</th><th>Body</th></tr></thead><tbody>
${rows.join('\n')}</tbody></table></body></html>`;
}

export async function docsRoutes(app: FastifyInstance): Promise<void> {
  const doc = buildOpenApi(allRoutes, { title: 'Lectern HTTP API', version: productVersion() });
  const html = page(doc);
  app.get('/api/v1/openapi.json', { config: { public: true } }, async (_req, reply) =>
    reply.type('application/json').send(doc),
  );
  app.get('/api/v1/docs', { config: { public: true } }, async (_req, reply) =>
    reply.type('text/html; charset=utf-8').send(html),
  );
}

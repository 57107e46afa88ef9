/**
 * An OpenAI-compatible embedding server for benchmarks: POST /v1/embeddings answers in OpenAI's shape
 * (`{ object: 'list', data: [{ object: 'embedding', index, embedding }], model, usage }`) after a fixed
 * pause per request, as a remote model's round trip costs, with deterministic hashed vectors. It
 * counts requests and inputs so a bench can show that ingestion waited on the model.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hashedEmbedding } from './hashed-embedding.js';

export interface EmbeddingStandin {
  url: string;
  stats(): { requests: number; inputs: number; maxInFlight: number };
  close(): Promise<void>;
}

export async function startEmbeddingStandin(latencyMs: number, dim = 384): Promise<EmbeddingStandin> {
  let requests = 0;
  let inputs = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/embeddings')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
        return;
      }
      let body: { input?: unknown; model?: string };
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8')) as typeof body;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'invalid JSON', type: 'invalid_request_error' } }));
        return;
      }
      const texts = (Array.isArray(body.input) ? body.input : [body.input]).map((t) => String(t ?? ''));
      requests++;
      inputs += texts.length;
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      setTimeout(() => {
        inFlight--;
        const tokens = texts.reduce((sum, t) => sum + Math.ceil(t.length / 4), 0);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            object: 'list',
            data: texts.map((t, index) => ({
              object: 'embedding',
              index,
              embedding: hashedEmbedding(t, dim),
            })),
            model: body.model ?? 'embedder',
            usage: { prompt_tokens: tokens, total_tokens: tokens },
          }),
        );
      }, latencyMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats: () => ({ requests, inputs, maxInFlight }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

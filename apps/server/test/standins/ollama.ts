import {
  countTokens,
  pieces,
  sendJson,
  standinEmbedding,
  startStandin,
  type Standin,
  type StandinContext,
} from './common.js';
import { defaultReply, openAIRoutes, shape, textOf, type ChatScript, type OpenAIChatBody } from './openai.js';

/**
 * Ollama stand-in: GET / ("Ollama is running"), /api/version, /api/tags; native POST /api/chat (NDJSON
 * stream, `message.thinking`, prompt_eval_count/eval_count) and /api/embed; and Ollama's
 * OpenAI-compatible API under /v1 (what Lectern's adapter uses): no auth, `delta.reasoning` for
 * thinking models, `fp_ollama`, and 404 "model … not found, try pulling it first" for unknown models.
 */
export interface OllamaStandinOptions {
  /** Pulled models (default llama3.2:latest, qwen3:latest, nomic-embed-text:latest). */
  models?: string[];
  embeddingDim?: number;
  reply?: (body: OpenAIChatBody) => string | ChatScript;
  chunkDelayMs?: number;
}

function known(models: string[], name: string): boolean {
  return models.includes(name) || models.includes(`${name}:latest`);
}

function notFound(c: StandinContext, name: string, v1: boolean): true {
  const message = `model "${name}" not found, try pulling it first`;
  sendJson(
    c.res,
    404,
    v1 ? { error: { message, type: 'api_error', param: null, code: null } } : { error: message },
  );
  return true;
}

async function nativeChat(c: StandinContext, o: OllamaStandinOptions): Promise<void> {
  const body = c.rec.body as {
    model: string;
    messages: Array<{ role: string; content: string }>;
    stream?: boolean;
    think?: boolean;
  };
  const raw = o.reply ? o.reply({ model: body.model, messages: body.messages }) : defaultReply(body);
  const script = typeof raw === 'string' ? { content: raw } : raw;
  const { content, reasoning } = shape(script, undefined, undefined);
  const created_at = new Date().toISOString();
  const prompt = body.messages.reduce((n, m) => n + countTokens(m.content), 0);
  const final = {
    model: body.model,
    created_at,
    message: { role: 'assistant', content: '' },
    done: true,
    done_reason: 'stop',
    total_duration: 1000,
    prompt_eval_count: prompt,
    eval_count: countTokens(content),
  };
  if (body.stream === false) {
    sendJson(c.res, 200, {
      ...final,
      message: { role: 'assistant', content, ...(reasoning && body.think ? { thinking: reasoning } : {}) },
    });
    return;
  }
  c.res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  if (reasoning && body.think)
    for (const p of pieces(reasoning))
      c.res.write(
        `${JSON.stringify({ model: body.model, created_at, message: { role: 'assistant', content: '', thinking: p }, done: false })}\n`,
      );
  for (const p of pieces(content))
    c.res.write(
      `${JSON.stringify({ model: body.model, created_at, message: { role: 'assistant', content: p }, done: false })}\n`,
    );
  c.res.end(`${JSON.stringify(final)}\n`);
}

export function startOllamaStandin(o: OllamaStandinOptions = {}): Promise<Standin> {
  const models = o.models ?? ['llama3.2:latest', 'qwen3-reasoning:latest', 'nomic-embed-text:latest'];
  const dim = o.embeddingDim ?? 768;
  const v1 = openAIRoutes({
    embeddingDim: dim,
    reply: o.reply,
    chunkDelayMs: o.chunkDelayMs,
    reasoningField: 'reasoning',
    systemFingerprint: 'fp_ollama',
    models,
  });
  return startStandin(
    [
      async (c) => {
        const p = c.rec.path;
        if (p === '/' && c.rec.method === 'GET') {
          c.res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
          c.res.end('Ollama is running');
          return true;
        }
        if (p === '/api/version') return (sendJson(c.res, 200, { version: '0.12.3' }), true);
        if (p === '/api/tags') {
          sendJson(c.res, 200, {
            models: models.map((name) => ({
              name,
              model: name,
              modified_at: '2025-01-01T00:00:00Z',
              size: 2019393189,
              digest: 'a80c4f17acd5',
              details: { format: 'gguf', family: 'llama' },
            })),
          });
          return true;
        }
        const body = (c.rec.body ?? {}) as { model?: string; input?: string | string[] };
        const isV1 = p.startsWith('/v1/');
        if (
          (p === '/api/chat' || p === '/api/embed' || (isV1 && !p.endsWith('/models'))) &&
          body.model &&
          !known(models, body.model)
        ) {
          return notFound(c, body.model, isV1);
        }
        if (c.fault === '500')
          return (
            sendJson(
              c.res,
              500,
              isV1
                ? { error: { message: 'llama runner process has terminated', type: 'api_error' } }
                : { error: 'llama runner process has terminated' },
            ),
            true
          );
        if (p === '/api/chat') return (await nativeChat(c, o), true);
        if (p === '/api/embed') {
          const inputs = Array.isArray(body.input) ? body.input : [String(body.input ?? '')];
          sendJson(c.res, 200, {
            model: body.model,
            embeddings: inputs.map((t) => standinEmbedding(t, dim)),
            prompt_eval_count: inputs.reduce((n, t) => n + countTokens(t), 0),
          });
          return true;
        }
        if (isV1) {
          for (const r of v1) if (await r(c)) return true;
        }
        return false;
      },
    ],
    { basePath: '', isModelCall: (r) => r.method === 'POST' },
  );
}

export { textOf };

import type http from 'node:http';
import {
  bearer,
  countTokens,
  pieces,
  sendJson,
  sseData,
  standinEmbedding,
  startSse,
  startStandin,
  streamPieces,
  type FaultKind,
  type Route,
  type Standin,
  type StandinContext,
} from './common.js';
import { rerankRoute } from './rerank.js';

/**
 * A stand-in for the OpenAI HTTP API (and OpenAI-shaped servers: vLLM, Xinference, Azure deployments):
 * POST …/chat/completions (JSON and SSE with `choices[].delta.content` / `reasoning_content`, usage in
 * the last chunk when `stream_options.include_usage`), …/embeddings, GET …/models, …/rerank (Jina shape),
 * …/audio/transcriptions, …/audio/speech.
 */
export interface ChatScript {
  content: string;
  reasoning?: string;
  /** Function calls to answer with (OpenAI `tool_calls`, finish reason `tool_calls`). */
  toolCalls?: Array<{ id?: string; name: string; arguments: Record<string, unknown> }>;
}

export interface OpenAIChatBody {
  model: string;
  messages: Array<{ role: string; content: unknown }>;
  stream?: boolean;
  stop?: string | string[];
  max_tokens?: number;
  max_completion_tokens?: number;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

export interface OpenAIStandinOptions {
  /** Size of the deterministic embeddings (default 384). */
  embeddingDim?: number;
  /** When set, only this key is accepted (Bearer or Azure's api-key header). */
  apiKey?: string;
  /** Scripted answers; default: echo the last user message (and think aloud for models named *reason*). */
  reply?: (body: OpenAIChatBody) => string | ChatScript;
  models?: string[];
  /** Pause between streamed chunks. */
  chunkDelayMs?: number;
  /**
   * Time to the first token, as a real model takes: a streamed answer sends its headers at once and
   * its first chunk after this pause; a non-streamed answer comes after it (plus the chunk pauses).
   */
  firstTokenMs?: number;
  /** Sent with 429 answers. */
  retryAfterMs?: number;
  /** Name of the reasoning field in deltas ("reasoning_content" like DeepSeek/vLLM; Ollama uses "reasoning"). */
  reasoningField?: string;
  systemFingerprint?: string;
}

export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((p) =>
        p && typeof p === 'object' && (p as { type?: string }).type === 'text'
          ? String((p as { text?: unknown }).text ?? '')
          : '',
      )
      .join('');
  }
  return '';
}

function imageCount(messages: OpenAIChatBody['messages']): number {
  let n = 0;
  for (const m of messages) {
    if (Array.isArray(m.content))
      n += m.content.filter((p) => (p as { type?: string }).type === 'image_url').length;
  }
  return n;
}

export function defaultReply(body: {
  model: string;
  messages: Array<{ role: string; content: unknown }>;
}): ChatScript {
  const lastUser = [...body.messages].reverse().find((m) => m.role === 'user');
  const text = textOf(lastUser?.content);
  const images = imageCount(body.messages);
  const content = images > 0 ? `I see ${images} image(s). You said: ${text}` : `You said: ${text}`;
  return /reason/i.test(body.model) ? { content, reasoning: `Thinking about "${text}".` } : { content };
}

/** Applies stop sequences and the token limit like a real server does. */
export function shape(
  script: ChatScript,
  stop: string | string[] | undefined,
  maxTokens: number | undefined,
) {
  let content = script.content;
  let finish = 'stop';
  const stops = stop === undefined ? [] : Array.isArray(stop) ? stop : [stop];
  for (const s of stops) {
    const i = s ? content.indexOf(s) : -1;
    if (i >= 0) content = content.slice(0, i);
  }
  if (maxTokens !== undefined && maxTokens > 0) {
    const ps = pieces(content);
    if (ps.length > maxTokens) {
      content = ps.slice(0, maxTokens).join('');
      finish = 'length';
    }
  }
  return { content, reasoning: script.reasoning ?? '', finish };
}

export function openAIError(res: http.ServerResponse, kind: FaultKind, retryAfterMs?: number): boolean {
  if (kind === '401') {
    sendJson(res, 401, {
      error: {
        message:
          'Incorrect API key provided: sk-bad. You can find your API key at https://platform.openai.com/account/api-keys.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
    return true;
  }
  if (kind === '429') {
    sendJson(
      res,
      429,
      {
        error: {
          message: 'Rate limit reached for requests',
          type: 'requests',
          param: null,
          code: 'rate_limit_exceeded',
        },
      },
      retryAfterMs !== undefined ? { 'retry-after-ms': String(retryAfterMs) } : {},
    );
    return true;
  }
  if (kind === '500') {
    sendJson(res, 500, {
      error: {
        message: 'The server had an error while processing your request. Sorry about that!',
        type: 'server_error',
        param: null,
        code: null,
      },
    });
    return true;
  }
  return false;
}

function authorized(c: StandinContext, apiKey: string | undefined): boolean {
  if (!apiKey) return true;
  const given = bearer(c.req) || String(c.req.headers['api-key'] ?? '');
  if (given === apiKey) return true;
  openAIError(c.res, '401');
  return false;
}

async function chat(c: StandinContext, o: OpenAIStandinOptions): Promise<void> {
  const body = c.rec.body as OpenAIChatBody;
  if (c.fault === 'malformed' && !body.stream) {
    c.res.writeHead(200, { 'content-type': 'application/json' });
    c.res.end('{"id": "chatcmpl-1", "choices": [{"message": {"content": "Hel');
    return;
  }
  const raw = (o.reply ?? defaultReply)(body);
  const script = typeof raw === 'string' ? { content: raw } : raw;
  const { content, reasoning, finish } = shape(
    script,
    body.stop,
    body.max_completion_tokens ?? body.max_tokens,
  );
  const calls = (script.toolCalls ?? []).map((c, index) => ({
    index,
    id: c.id ?? `call_${index}_${Date.now().toString(36)}`,
    type: 'function',
    function: { name: c.name, arguments: JSON.stringify(c.arguments) },
  }));
  const endReason = calls.length ? 'tool_calls' : finish;
  const prompt = body.messages.reduce((n, m) => n + countTokens(textOf(m.content)), 0);
  const completion = countTokens(content) + (reasoning ? countTokens(reasoning) : 0);
  const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  const id = `chatcmpl-${Date.now().toString(36)}`;
  const created = Math.floor(Date.now() / 1000);
  const rField = o.reasoningField ?? 'reasoning_content';
  const base = {
    id,
    object: 'chat.completion.chunk',
    created,
    model: body.model,
    system_fingerprint: o.systemFingerprint ?? 'fp_standin',
  };
  const pause = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());
  if (!body.stream) {
    await pause((o.firstTokenMs ?? 0) + (o.chunkDelayMs ?? 0) * pieces(content).length);
    const message: Record<string, unknown> = { role: 'assistant', content };
    if (reasoning) message[rField] = reasoning;
    if (calls.length) message.tool_calls = calls.map(({ index: _i, ...c }) => c);
    sendJson(c.res, 200, {
      id,
      object: 'chat.completion',
      created,
      model: body.model,
      choices: [{ index: 0, message, finish_reason: endReason }],
      usage,
    });
    return;
  }
  startSse(c.res);
  if (c.fault === 'malformed') {
    sseData(c.res, {
      ...base,
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
    });
    c.res.end('data: {"id": "chatcmpl-1", "choices": [{"delta": {"content": "Hel\n\n');
    return;
  }
  const parts: Array<() => void> = [
    () =>
      sseData(c.res, {
        ...base,
        choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
      }),
  ];
  for (const p of pieces(reasoning))
    parts.push(() =>
      sseData(c.res, { ...base, choices: [{ index: 0, delta: { [rField]: p }, finish_reason: null }] }),
    );
  for (const p of pieces(content))
    parts.push(() =>
      sseData(c.res, { ...base, choices: [{ index: 0, delta: { content: p }, finish_reason: null }] }),
    );
  for (const call of calls)
    parts.push(() =>
      sseData(c.res, {
        ...base,
        choices: [{ index: 0, delta: { tool_calls: [call] }, finish_reason: null }],
      }),
    );
  parts.push(() => sseData(c.res, { ...base, choices: [{ index: 0, delta: {}, finish_reason: endReason }] }));
  if (body.stream_options?.include_usage) parts.push(() => sseData(c.res, { ...base, choices: [], usage }));
  parts.push(() => sseData(c.res, '[DONE]'));
  await pause(o.firstTokenMs ?? 0);
  await streamPieces(c.res, parts, c.fault, o.chunkDelayMs);
}

function embeddings(c: StandinContext, dim: number): void {
  const body = c.rec.body as { input: string | string[]; model: string; encoding_format?: string };
  if (c.fault === 'malformed') {
    c.res.writeHead(200, { 'content-type': 'application/json' });
    c.res.end('{"object": "list", "data": [{"embedding": [0.1, 0.2');
    return;
  }
  const inputs = Array.isArray(body.input) ? body.input : [body.input];
  const data = inputs.map((text, index) => {
    const v = standinEmbedding(String(text), dim);
    const embedding =
      body.encoding_format === 'base64' ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v;
    return { object: 'embedding', index, embedding };
  });
  const tokens = inputs.reduce((n, t) => n + countTokens(String(t)), 0);
  sendJson(c.res, 200, {
    object: 'list',
    data,
    model: body.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}

async function transcription(c: StandinContext): Promise<void> {
  const form = await new Response(new Uint8Array(c.rec.raw), {
    headers: { 'content-type': String(c.req.headers['content-type']) },
  }).formData();
  const file = form.get('file');
  const size = file && typeof file !== 'string' ? file.size : 0;
  const text = `Transcribed ${size} bytes with ${String(form.get('model'))}.`;
  const verbose = form.get('response_format') === 'verbose_json';
  sendJson(
    c.res,
    200,
    verbose
      ? { task: 'transcribe', language: 'english', duration: size / 32000, text, segments: [] }
      : { text },
  );
}

function speech(c: StandinContext): void {
  const body = c.rec.body as { input: string; voice?: string; response_format?: string };
  const audio = Buffer.concat([Buffer.from('ID3'), Buffer.from(`${body.voice ?? ''}:${body.input}`)]);
  c.res.writeHead(200, {
    'content-type': body.response_format === 'wav' ? 'audio/wav' : 'audio/mpeg',
    'content-length': audio.length,
  });
  c.res.end(audio);
}

export function openAIRoutes(o: OpenAIStandinOptions): Route[] {
  const dim = o.embeddingDim ?? 384;
  const models = o.models ?? ['gpt-4o-mini', 'text-embedding-3-small'];
  return [
    async (c) => {
      const p = c.rec.path;
      const known = [
        '/chat/completions',
        '/embeddings',
        '/models',
        '/rerank',
        '/audio/transcriptions',
        '/audio/speech',
      ].some((s) => p.endsWith(s));
      if (!known) return false;
      if (!authorized(c, o.apiKey)) return true;
      if (c.fault && openAIError(c.res, c.fault, o.retryAfterMs)) return true;
      if (p.endsWith('/chat/completions') && c.rec.method === 'POST') await chat(c, o);
      else if (p.endsWith('/embeddings') && c.rec.method === 'POST') embeddings(c, dim);
      else if (p.endsWith('/models'))
        sendJson(c.res, 200, {
          object: 'list',
          data: models.map((id) => ({ id, object: 'model', created: 1700000000, owned_by: 'standin' })),
        });
      else if (p.endsWith('/rerank')) return rerankRoute('jina')(c);
      else if (p.endsWith('/audio/transcriptions')) await transcription(c);
      else if (p.endsWith('/audio/speech')) speech(c);
      else return false;
      return true;
    },
  ];
}

const isModelPath = (p: string) => !p.endsWith('/models');

/** OpenAI stand-in; `url` ends with /v1 like https://api.openai.com/v1. */
export function startOpenAIStandin(o: OpenAIStandinOptions = {}): Promise<Standin> {
  return startStandin(openAIRoutes(o), { basePath: '/v1', isModelCall: (r) => isModelPath(r.path) });
}

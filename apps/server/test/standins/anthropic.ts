import {
  countTokens,
  pieces,
  sendJson,
  sseData,
  startSse,
  startStandin,
  streamPieces,
  type Standin,
  type StandinContext,
} from './common.js';
import { defaultReply, shape, type ChatScript } from './openai.js';

/**
 * Anthropic Messages API stand-in: POST /v1/messages with `x-api-key`, JSON or SSE with the real event
 * types (message_start, content_block_start, content_block_delta text_delta/thinking_delta,
 * content_block_stop, message_delta with usage, message_stop, ping) and the real error shape
 * {type:"error", error:{type, message}}.
 */
export interface AnthropicStandinOptions {
  apiKey?: string;
  reply?: (body: AnthropicBody) => string | ChatScript;
  chunkDelayMs?: number;
}

interface AnthropicBody {
  model: string;
  system?: unknown;
  messages: Array<{ role: string; content: unknown }>;
  stream?: boolean;
  max_tokens?: number;
  stop_sequences?: string[];
  thinking?: { type: string };
}

function anthropicError(c: StandinContext, status: number, type: string, message: string): true {
  sendJson(c.res, status, { type: 'error', error: { type, message } });
  return true;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((p) => ((p as { type?: string }).type === 'text' ? String((p as { text?: unknown }).text) : ''))
      .join('');
  return '';
}

async function messages(c: StandinContext, o: AnthropicStandinOptions): Promise<void> {
  const body = c.rec.body as AnthropicBody;
  if (c.fault === 'malformed' && !body.stream) {
    c.res.writeHead(200, { 'content-type': 'application/json' });
    c.res.end('{"id": "msg_1", "type": "message", "content": [{"type": "text", "text": "Hel');
    return;
  }
  const normalized = {
    model: body.model,
    messages: body.messages.map((m) => ({ role: m.role, content: m.content })),
  };
  const raw = o.reply ? o.reply(body) : defaultReply(normalized);
  const script = typeof raw === 'string' ? { content: raw } : raw;
  const shaped = shape(script, body.stop_sequences, body.max_tokens);
  const stopSeq =
    body.stop_sequences?.find((s) => script.content.includes(s) && !shaped.content.includes(s)) ?? null;
  const stopReason = shaped.finish === 'length' ? 'max_tokens' : stopSeq ? 'stop_sequence' : 'end_turn';
  const input =
    body.messages.reduce((n, m) => n + countTokens(textOf(m.content)), 0) + countTokens(textOf(body.system));
  const output = countTokens(shaped.content) + (shaped.reasoning ? countTokens(shaped.reasoning) : 0);
  const id = `msg_${Date.now().toString(36)}`;
  if (!body.stream) {
    const content = [
      ...(shaped.reasoning ? [{ type: 'thinking', thinking: shaped.reasoning, signature: 'c2ln' }] : []),
      { type: 'text', text: shaped.content },
    ];
    sendJson(c.res, 200, {
      id,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content,
      stop_reason: stopReason,
      stop_sequence: stopSeq,
      usage: { input_tokens: input, output_tokens: output },
    });
    return;
  }
  startSse(c.res);
  const ev = (type: string, data: Record<string, unknown>) => () => sseData(c.res, { type, ...data }, type);
  if (c.fault === 'malformed') {
    ev('message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: input, output_tokens: 1 },
      },
    })();
    c.res.end(
      'event: content_block_delta\ndata: {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hel\n\n',
    );
    return;
  }
  const parts: Array<() => void> = [
    ev('message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: input, output_tokens: 1 },
      },
    }),
    ev('ping', {}),
  ];
  let index = 0;
  if (shaped.reasoning) {
    const i = index++;
    parts.push(ev('content_block_start', { index: i, content_block: { type: 'thinking', thinking: '' } }));
    for (const p of pieces(shaped.reasoning))
      parts.push(ev('content_block_delta', { index: i, delta: { type: 'thinking_delta', thinking: p } }));
    parts.push(
      ev('content_block_delta', { index: i, delta: { type: 'signature_delta', signature: 'c2ln' } }),
    );
    parts.push(ev('content_block_stop', { index: i }));
  }
  const t = index++;
  parts.push(ev('content_block_start', { index: t, content_block: { type: 'text', text: '' } }));
  for (const p of pieces(shaped.content))
    parts.push(ev('content_block_delta', { index: t, delta: { type: 'text_delta', text: p } }));
  parts.push(ev('content_block_stop', { index: t }));
  parts.push(
    ev('message_delta', {
      delta: { stop_reason: stopReason, stop_sequence: stopSeq },
      usage: { output_tokens: output },
    }),
  );
  parts.push(ev('message_stop', {}));
  await streamPieces(c.res, parts, c.fault, o.chunkDelayMs);
}

export function startAnthropicStandin(o: AnthropicStandinOptions = {}): Promise<Standin> {
  return startStandin(
    [
      async (c) => {
        if (c.rec.method !== 'POST' || !c.rec.path.endsWith('/v1/messages')) return false;
        if (o.apiKey && c.req.headers['x-api-key'] !== o.apiKey)
          return anthropicError(c, 401, 'authentication_error', 'invalid x-api-key');
        if (c.fault === '401') return anthropicError(c, 401, 'authentication_error', 'invalid x-api-key');
        if (c.fault === '429')
          return anthropicError(
            c,
            429,
            'rate_limit_error',
            'Number of request tokens has exceeded your per-minute rate limit',
          );
        if (c.fault === '500') return anthropicError(c, 500, 'api_error', 'Internal server error');
        await messages(c, o);
        return true;
      },
    ],
    { basePath: '/v1' },
  );
}

import crypto from 'node:crypto';
import {
  countTokens,
  pieces,
  sendJson,
  sseData,
  standinEmbedding,
  startSse,
  startStandin,
  streamPieces,
  type Standin,
  type StandinContext,
} from './common.js';
import { defaultReply, shape, type ChatScript } from './openai.js';

/**
 * Gemini API stand-in: POST /v1beta/models/<m>:generateContent, :streamGenerateContent?alt=sse,
 * :embedContent, :batchEmbedContents (key in `x-goog-api-key` or `?key=`). Also the Vertex AI shape
 * (/v1/projects/<p>/locations/<r>/publishers/google/models/<m>:generateContent | :predict) with a
 * Bearer token from POST /token, which checks the service account's signed JWT (RS256).
 */
export interface GeminiStandinOptions {
  apiKey?: string;
  embeddingDim?: number;
  reply?: (prompt: string) => string | ChatScript;
  chunkDelayMs?: number;
  /** PEM public key of the service account whose JWTs /token accepts (Vertex). */
  serviceAccountPublicKey?: string;
}

interface Content {
  role?: string;
  parts?: Array<{ text?: string; inlineData?: unknown }>;
}

const issuedTokens = new Set<string>();

function googleError(c: StandinContext, status: number, message: string, statusText: string): true {
  sendJson(c.res, status, { error: { code: status, message, status: statusText } });
  return true;
}

function keyOk(c: StandinContext, o: GeminiStandinOptions): boolean {
  const bearer = (c.req.headers.authorization ?? '').replace(/^Bearer /, '');
  if (c.rec.path.includes('/projects/')) return issuedTokens.has(bearer);
  if (!o.apiKey) return true;
  return c.req.headers['x-goog-api-key'] === o.apiKey || c.rec.query.get('key') === o.apiKey;
}

function token(c: StandinContext, o: GeminiStandinOptions): true {
  const form = new URLSearchParams(c.rec.raw.toString('utf8'));
  const [h, p, s] = (form.get('assertion') ?? '').split('.');
  const valid =
    form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer' &&
    !!o.serviceAccountPublicKey &&
    !!s &&
    crypto.createVerify('RSA-SHA256').update(`${h}.${p}`).verify(o.serviceAccountPublicKey, s, 'base64url');
  if (!valid) {
    sendJson(c.res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
    return true;
  }
  const t = `ya29.${crypto.randomBytes(12).toString('hex')}`;
  issuedTokens.add(t);
  sendJson(c.res, 200, { access_token: t, expires_in: 3599, token_type: 'Bearer' });
  return true;
}

async function generate(
  c: StandinContext,
  o: GeminiStandinOptions,
  model: string,
  stream: boolean,
): Promise<void> {
  const body = c.rec.body as {
    contents: Content[];
    systemInstruction?: Content;
    generationConfig?: {
      stopSequences?: string[];
      maxOutputTokens?: number;
      thinkingConfig?: { includeThoughts?: boolean };
    };
  };
  const text = (content: Content | undefined) => (content?.parts ?? []).map((p) => p.text ?? '').join('');
  const lastUser = [...body.contents].reverse().find((x) => x.role === 'user');
  const prompt = text(lastUser);
  const images = body.contents.flatMap((x) => x.parts ?? []).filter((p) => p.inlineData).length;
  const raw = o.reply
    ? o.reply(prompt)
    : defaultReply({
        model,
        messages: [
          {
            role: 'user',
            content: images
              ? [{ type: 'text', text: prompt }, ...Array(images).fill({ type: 'image_url' })]
              : prompt,
          },
        ],
      });
  const script = typeof raw === 'string' ? { content: raw } : raw;
  const g = body.generationConfig ?? {};
  const shaped = shape(script, g.stopSequences, g.maxOutputTokens);
  const promptTokens =
    body.contents.reduce((n, x) => n + countTokens(text(x)), 0) +
    (body.systemInstruction ? countTokens(text(body.systemInstruction)) : 0);
  const outTokens = countTokens(shaped.content);
  const thoughtTokens = shaped.reasoning ? countTokens(shaped.reasoning) : 0;
  const usageMetadata = {
    promptTokenCount: promptTokens,
    candidatesTokenCount: outTokens,
    totalTokenCount: promptTokens + outTokens + thoughtTokens,
    ...(thoughtTokens ? { thoughtsTokenCount: thoughtTokens } : {}),
  };
  const finishReason = shaped.finish === 'length' ? 'MAX_TOKENS' : 'STOP';
  const candidate = (parts: unknown[], finish?: string) => ({
    content: { parts, role: 'model' },
    ...(finish ? { finishReason: finish } : {}),
    index: 0,
  });
  if (c.fault === 'malformed') {
    if (stream) {
      startSse(c.res);
      c.res.end('data: {"candidates": [{"content": {"parts": [{"text": "Hel\n\n');
    } else {
      c.res.writeHead(200, { 'content-type': 'application/json' });
      c.res.end('{"candidates": [{"content": {"parts": [{"text": "Hel');
    }
    return;
  }
  if (!stream) {
    const parts = [
      ...(shaped.reasoning ? [{ text: shaped.reasoning, thought: true }] : []),
      { text: shaped.content },
    ];
    sendJson(c.res, 200, {
      candidates: [candidate(parts, finishReason)],
      usageMetadata,
      modelVersion: model,
    });
    return;
  }
  startSse(c.res);
  const out: Array<() => void> = [];
  for (const p of pieces(shaped.reasoning))
    out.push(() =>
      sseData(c.res, { candidates: [candidate([{ text: p, thought: true }])], modelVersion: model }),
    );
  const ps = pieces(shaped.content);
  ps.forEach((p, i) => {
    const last = i === ps.length - 1;
    out.push(() =>
      sseData(c.res, {
        candidates: [candidate([{ text: p }], last ? finishReason : undefined)],
        ...(last ? { usageMetadata } : {}),
        modelVersion: model,
      }),
    );
  });
  if (ps.length === 0)
    out.push(() =>
      sseData(c.res, {
        candidates: [candidate([{ text: '' }], finishReason)],
        usageMetadata,
        modelVersion: model,
      }),
    );
  await streamPieces(c.res, out, c.fault, o.chunkDelayMs);
}

function embed(c: StandinContext, o: GeminiStandinOptions, action: string): void {
  const dim = o.embeddingDim ?? 768;
  if (c.fault === 'malformed') {
    c.res.writeHead(200, { 'content-type': 'application/json' });
    c.res.end('{"embeddings": [{"values": [0.1, ');
    return;
  }
  const textOf = (content: Content | undefined) => (content?.parts ?? []).map((p) => p.text ?? '').join('');
  if (action === 'embedContent') {
    const body = c.rec.body as { content: Content };
    sendJson(c.res, 200, { embedding: { values: standinEmbedding(textOf(body.content), dim) } });
  } else if (action === 'batchEmbedContents') {
    const body = c.rec.body as { requests: Array<{ content: Content }> };
    sendJson(c.res, 200, {
      embeddings: body.requests.map((r) => ({ values: standinEmbedding(textOf(r.content), dim) })),
    });
  } else {
    const body = c.rec.body as { instances: Array<{ content: string }> };
    sendJson(c.res, 200, {
      predictions: body.instances.map((i) => ({
        embeddings: {
          values: standinEmbedding(i.content, dim),
          statistics: { token_count: countTokens(i.content), truncated: false },
        },
      })),
    });
  }
}

export function startGeminiStandin(o: GeminiStandinOptions = {}): Promise<Standin> {
  return startStandin(
    [
      async (c) => {
        if (c.rec.method === 'POST' && c.rec.path === '/token') return token(c, o);
        const m = /\/models\/([^/:]+):(\w+)$/.exec(c.rec.path);
        if (c.rec.method !== 'POST' || !m) return false;
        const [, model, action] = m;
        if (!keyOk(c, o)) {
          return c.rec.path.includes('/projects/')
            ? googleError(
                c,
                401,
                'Request had invalid authentication credentials. Expected OAuth 2 access token.',
                'UNAUTHENTICATED',
              )
            : googleError(c, 400, 'API key not valid. Please pass a valid API key.', 'INVALID_ARGUMENT');
        }
        if (c.fault === '401')
          return googleError(c, 401, 'Request had invalid authentication credentials.', 'UNAUTHENTICATED');
        if (c.fault === '429')
          return googleError(c, 429, 'Resource has been exhausted (e.g. check quota).', 'RESOURCE_EXHAUSTED');
        if (c.fault === '500') return googleError(c, 500, 'An internal error has occurred.', 'INTERNAL');
        if (action === 'generateContent' || action === 'streamGenerateContent')
          await generate(c, o, model, action === 'streamGenerateContent');
        else if (action === 'embedContent' || action === 'batchEmbedContents' || action === 'predict')
          embed(c, o, action);
        else return false;
        return true;
      },
    ],
    { basePath: '/v1beta', isModelCall: (r) => r.path !== '/token' },
  );
}

/**
 * Test fixtures of the chat area (used by its *.test.ts files and the bench): a tenant wired to the
 * OpenAI stand-in (chat, embedding, tts models and system defaults), knowledge bases whose chunks go
 * straight into the real chunk index, dialogs and conversations, and an SSE reader.
 */
import crypto from 'node:crypto';
import { call, type TestServer, type TestUser } from '../../test/harness.js';
import { standinEmbedding, type Standin } from '../../test/standins/index.js';
import type { ChunkRecord } from '../chunk-index/chunk-index.js';
import { parseSse } from './sse.js';

export const CHAT_MODEL = 'standin-chat@OpenAI-API-Compatible';
export const EMBD_MODEL = 'standin-embd@OpenAI-API-Compatible';
export const TTS_MODEL = 'standin-tts@OpenAI-API-Compatible';
export const DIM = 384;

async function must<T>(p: Promise<{ body: { code: number; message: string; data?: T } }>): Promise<T> {
  const res = await p;
  if (res.body.code !== 0) throw new Error(`${res.body.code} ${res.body.message}`);
  return res.body.data as T;
}

/** Adds the stand-in's chat/embedding/tts models to the user's tenant and makes them the defaults. */
export async function wireModels(
  server: TestServer,
  user: TestUser,
  llm: Standin,
  opts: { contextTokens?: number; chatName?: string; tts?: boolean; embed?: Standin } = {},
): Promise<void> {
  const add = (llm_name: string, model_type: string, max_tokens?: number, base = llm) =>
    must(
      call(server, '/v1/llm/add_llm', {
        token: user.token,
        body: {
          llm_factory: 'OpenAI-API-Compatible',
          llm_name,
          model_type,
          api_base: base.url,
          api_key: 'sk-test',
          max_tokens,
          verify: false,
        },
      }),
    );
  await add(opts.chatName ?? 'standin-chat', 'chat', opts.contextTokens ?? 8192);
  // A separate embedding stand-in keeps scripted chat faults away from query embeddings.
  await add('standin-embd', 'embedding', undefined, opts.embed ?? llm);
  if (opts.tts) await add('standin-tts', 'tts');
  await must(
    call(server, '/v1/user/set_tenant_info', {
      token: user.token,
      body: {
        tenant_id: user.id,
        llm_id: `${opts.chatName ?? 'standin-chat'}@OpenAI-API-Compatible`,
        embd_id: EMBD_MODEL,
        asr_id: '',
        img2txt_id: '',
        ...(opts.tts ? { tts_id: TTS_MODEL } : {}),
      },
    }),
  );
}

export async function createKb(server: TestServer, user: TestUser, name: string): Promise<string> {
  const data = await must<{ kb_id: string }>(
    call(server, '/v1/kb/create', { token: user.token, body: { name, embd_id: EMBD_MODEL } }),
  );
  return data.kb_id;
}

export interface ChunkSeed {
  content: string;
  doc: string;
  docId?: string;
}

function chunkId(content: string, docId: string): string {
  return crypto
    .createHash('sha256')
    .update(content + docId)
    .digest('hex')
    .slice(0, 16);
}

export function chunkRecord(kbId: string, tenantId: string, s: ChunkSeed, withVector = true): ChunkRecord {
  const docId = s.docId ?? crypto.createHash('md5').update(s.doc).digest('hex');
  return {
    id: chunkId(s.content, docId),
    doc_id: docId,
    kb_id: kbId,
    tenant_id: tenantId,
    docnm_kwd: s.doc,
    content_with_weight: s.content,
    important_kwd: [],
    question_kwd: [],
    tag_kwd: [],
    tag_feas: {},
    img_id: '',
    positions: [],
    available_int: 1,
    create_time: Date.now(),
    doc_type_kwd: null,
    mom_id: null,
    pagerank_fea: 0,
    vector: withVector ? standinEmbedding(s.content, DIM) : null,
  };
}

/** Indexes chunks into the real chunk index (as parsing would have). */
export async function seedChunks(
  server: TestServer,
  kbId: string,
  tenantId: string,
  seeds: ChunkSeed[],
): Promise<ChunkRecord[]> {
  const records = seeds.map((s) => chunkRecord(kbId, tenantId, s));
  await server.ctx.chunkIndex.upsert(records);
  return records;
}

export async function createDialog(
  server: TestServer,
  user: TestUser,
  body: Record<string, unknown>,
): Promise<{ id: string }> {
  return must<{ id: string }>(call(server, '/v1/dialog/set', { token: user.token, body }));
}

export async function createConversation(
  server: TestServer,
  user: TestUser,
  dialogId: string,
  id = crypto.randomUUID().replaceAll('-', ''),
) {
  await must(
    call(server, '/v1/conversation/set', {
      token: user.token,
      body: { is_new: true, conversation_id: id, dialog_id: dialogId, name: 'chat' },
    }),
  );
  return id;
}

export interface SseResult {
  status: number;
  headers: Headers;
  raw: string;
  events: Array<{ code: number; message: string; data: unknown }>;
}

/** POSTs and reads the whole SSE stream. */
export async function postSse(
  server: TestServer,
  route: string,
  body: unknown,
  token?: string,
): Promise<SseResult> {
  const res = await fetch(`${server.url}${route}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: token } : {}) },
    body: JSON.stringify(body),
  });
  const raw = await res.text();
  const events = res.headers.get('content-type')?.startsWith('text/event-stream')
    ? (parseSse(raw) as SseResult['events'])
    : [JSON.parse(raw)];
  return { status: res.status, headers: res.headers, raw, events };
}

export type AnswerData = {
  answer: string;
  reference: {
    total?: number;
    chunks: Array<Record<string, unknown>>;
    doc_aggs?: Array<Record<string, unknown>>;
  };
  final: boolean;
  id: string;
  session_id: string;
  prompt: string;
  audio_binary: string | null;
  start_to_think?: boolean;
  end_to_think?: boolean;
};

/** The answer events (data objects) of a stream, without the terminator. */
export function answers(r: SseResult): AnswerData[] {
  return r.events
    .filter((e) => typeof e.data === 'object' && e.data !== null && e.code === 0)
    .map((e) => e.data as AnswerData);
}

/**
 * Helpers of the chunk/retrieval integration tests (not a test file itself): empty documents from
 * `document/create`, chunks through `chunk/create`, retrieval_test calls, the KB/document counters,
 * and an embedding model on the OpenAI stand-in.
 */
import { expect } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAIStandin, type Standin } from '../../../test/standins/index.js';
import { createKb } from '../kb/test-support.js';

export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data?: T;
}

export async function post<T = unknown>(
  server: TestServer,
  token: string,
  route: string,
  body: unknown,
): Promise<Envelope<T>> {
  return (await call<T>(server, route, { token, body })).body as Envelope<T>;
}

export async function get<T = unknown>(
  server: TestServer,
  token: string,
  route: string,
): Promise<Envelope<T>> {
  return (await call<T>(server, route, { token })).body as Envelope<T>;
}

/** An empty (virtual) document to put hand-made chunks into. */
export async function emptyDoc(
  server: TestServer,
  token: string,
  kbId: string,
  name: string,
): Promise<string> {
  const res = await post<{ id: string }>(server, token, '/v1/document/create', { kb_id: kbId, name });
  expect(res.message).toBe('success');
  return res.data!.id;
}

export async function addChunk(
  server: TestServer,
  token: string,
  docId: string,
  content: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await post<{ chunk_id: string }>(server, token, '/v1/chunk/create', {
    doc_id: docId,
    content_with_weight: content,
    ...extra,
  });
  expect(res.message, content).toBe('success');
  return res.data!.chunk_id;
}

/** A KB with one empty document holding the given chunks (in order); returns the ids. */
export async function corpus(
  server: TestServer,
  user: TestUser,
  chunks: Array<string | { content: string; [k: string]: unknown }>,
  kb: Record<string, unknown> = {},
  docName = 'corpus.txt',
): Promise<{ kbId: string; docId: string; ids: string[] }> {
  const kbId = await createKb(server, user.token, { embd_id: '', ...kb });
  const docId = await emptyDoc(server, user.token, kbId, docName);
  const ids: string[] = [];
  for (const c of chunks) {
    const { content, ...extra } = typeof c === 'string' ? { content: c } : c;
    ids.push(await addChunk(server, user.token, docId, content, extra));
  }
  return { kbId, docId, ids };
}

export interface Hit {
  chunk_id: string;
  content_with_weight: string;
  doc_id: string;
  docnm_kwd: string;
  kb_id: string;
  similarity: number;
  vector_similarity: number;
  term_similarity: number;
  highlight?: string;
  [k: string]: unknown;
}

export interface RetrievalAnswer {
  total: number;
  chunks: Hit[];
  doc_aggs: Array<{ doc_name: string; doc_id: string; count: number }>;
  labels: Record<string, number> | null;
  keyword_only: boolean;
  notice: string | null;
}

export async function retrieval(
  server: TestServer,
  token: string,
  body: Record<string, unknown>,
): Promise<Envelope<RetrievalAnswer>> {
  return post<RetrievalAnswer>(server, token, '/v1/chunk/retrieval_test', body);
}

export async function counters(server: TestServer, docId: string) {
  const doc = await server.ctx.db.kysely
    .selectFrom('document')
    .select(['kb_id', 'chunk_num', 'token_num'])
    .where('id', '=', docId)
    .executeTakeFirstOrThrow();
  const kb = await server.ctx.db.kysely
    .selectFrom('knowledgebase')
    .select(['chunk_num', 'token_num'])
    .where('id', '=', doc.kb_id)
    .executeTakeFirstOrThrow();
  return {
    doc: { chunks: Number(doc.chunk_num), tokens: Number(doc.token_num) },
    kb: { chunks: Number(kb.chunk_num), tokens: Number(kb.token_num) },
  };
}

/** Adds a model on a stand-in as an OpenAI-API-Compatible (or other) model; returns its id. */
export async function addModel(
  server: TestServer,
  user: TestUser,
  body: { llm_factory: string; llm_name: string; model_type: string; api_base: string; api_key?: string },
): Promise<string> {
  const res = await post(server, user.token, '/v1/llm/add_llm', { api_key: 'k', ...body });
  expect(res.code, res.message).toBe(0);
  const row = await server.ctx.db.kysely
    .selectFrom('tenant_llm')
    .select(['llm_name', 'llm_factory'])
    .where('tenant_id', '=', user.id)
    .where('model_type', '=', body.model_type)
    .where('llm_factory', '=', body.llm_factory)
    .where('llm_name', 'like', `${body.llm_name}%`)
    .executeTakeFirstOrThrow();
  return `${row.llm_name}@${row.llm_factory}`;
}

/** Dimension of the stand-in embeddings the chunk endpoint tests use. */
export const FIXTURE_DIM = 32;

/** A chunk list answer as the tests read it. */
export interface Listed {
  total: number;
  chunks: Array<
    Record<string, unknown> & { chunk_id: string; content_with_weight: string; available_int: number }
  >;
  doc: Record<string, unknown>;
}

export interface ChunkFixture {
  server: TestServer;
  llm: Standin;
  alice: TestUser;
  bob: TestUser;
  embdId: string;
  kbId: string;
  docId: string;
  close(): Promise<void>;
}

/**
 * The world of the chunk endpoint tests: a server, an embedding stand-in, Alice with a KB on that
 * embedding model and an empty document in it, and Bob (another tenant).
 */
export async function startChunkFixture(): Promise<ChunkFixture> {
  const llm = await startOpenAIStandin({ embeddingDim: FIXTURE_DIM });
  const server = await startTestServer();
  const alice = await newUser(server, 'alice');
  const bob = await newUser(server, 'bob');
  const embdId = await addModel(server, alice, {
    llm_factory: 'OpenAI-API-Compatible',
    llm_name: 'embedder',
    model_type: 'embedding',
    api_base: `${llm.url}/v1`,
  });
  const kbId = await createKb(server, alice.token, { name: 'Chunks', embd_id: embdId });
  const docId = await emptyDoc(server, alice.token, kbId, 'notes.txt');
  return {
    server,
    llm,
    alice,
    bob,
    embdId,
    kbId,
    docId,
    async close() {
      await server.close();
      await llm.close();
    },
  };
}

/**
 * Chunk reading and editing (API.md §7): list (plain or keyword search with highlight), get, create,
 * set (re-tokenized and re-embedded), switch, rm. The index write and the document/KB counters go
 * together: counters change in one transaction right after the index write, and a failed counter
 * update takes a created chunk back out of the index.
 */
import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context.js';
import { parseJson } from '../../db/json.js';
import type { Database, UserTable } from '../../db/types.js';
import { errors } from '../../http/envelope.js';
import { chunkId } from '../../ingest/pipeline.js';
import { countTokens } from '../../ingest/tokens.js';
import {
  accessScopeOf,
  loadChunkDocument,
  loadChunkKb,
  type Action,
  type DocWithKb,
} from '../../policy/index.js';
import type { ChunkFilter, ChunkPatch, ChunkRecord } from '../../chunk-index/chunk-index.js';
import { highlight } from '../../search/highlight.js';
import { planSearch } from '../../chunk-index/query.js';
import { hasHan } from '../../chunk-index/tokenizer.js';
import type { DocumentTable } from '../../db/tables/knowledge.js';
import { embedChunk } from './embed.js';
import { presentListedChunk } from './presenter.js';
import { parentsOfHits, resplitChildren, withChildIds } from './family.js';
import { childIdsOf } from '../../chunk-index/fields.js';
import { childDelimiterOf } from '../../ingest/stages/children.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Adds (or with negative numbers removes) chunks and tokens on the document and its KB. */
async function bumpCounters(
  db: Db,
  docId: string,
  kbId: string,
  chunks: number,
  tokens: number,
): Promise<void> {
  if (chunks === 0 && tokens === 0) return;
  await db
    .updateTable('document')
    .set((eb) => ({ chunk_num: eb('chunk_num', '+', chunks), token_num: eb('token_num', '+', tokens) }))
    .where('id', '=', docId)
    .execute();
  await db
    .updateTable('knowledgebase')
    .set((eb) => ({ chunk_num: eb('chunk_num', '+', chunks), token_num: eb('token_num', '+', tokens) }))
    .where('id', '=', kbId)
    .execute();
}

/**
 * The document a chunk route names, under the access policy (API.md §1.6, §7): an unknown document
 * is 102 "Document not found!", one the caller may not use is 109 "No authorization.", a document
 * whose KB or tenant is gone is 102 "Knowledgebase not found!" / "Tenant not found!".
 */
export async function chunkDoc(
  ctx: AppContext,
  user: UserTable,
  docId: string,
  action: Action = 'read',
): Promise<DocWithKb> {
  const db = ctx.db.kysely;
  return loadChunkDocument(db, await accessScopeOf(db, user.id), docId, action);
}

export interface ListInput {
  docId: string;
  page: number;
  size: number;
  keywords: string;
  available?: 0 | 1;
}

/** `{total, chunks, doc}`: reading order without keywords, text relevance with them (highlighted). */
export async function listChunks(ctx: AppContext, user: UserTable, input: ListInput) {
  const { doc, kb } = await chunkDoc(ctx, user, input.docId);
  const index = ctx.chunkIndex;
  const filter: ChunkFilter = { kbIds: [kb.id], docIds: [doc.id], available: input.available };
  const offset = (input.page - 1) * input.size;
  const keywords = input.keywords.trim();
  if (!keywords) {
    const { total, chunks } = await index.list(filter, 'position', offset, input.size);
    return { doc, total, chunks: chunks.map((c) => presentListedChunk(c)) };
  }
  const plan = await planSearch(index, keywords, { keepSingleChars: true });
  if (!plan) return { doc, total: 0, chunks: [] };
  const found = await index.search({
    filter,
    text: plan.text,
    vector: null,
    textScoring: 'bm25',
    offset,
    limit: input.size,
  });
  const shown = await parentsOfHits(
    index,
    found.hits.map((h) => h.chunk),
  );
  return {
    doc,
    total: found.matched,
    chunks: shown.map((c) => presentListedChunk(c, highlight(c.content_with_weight, plan.keywords))),
  };
}

/** The stored chunk when the caller may use its KB: 102 "Chunk not found!" / 109 otherwise. */
export async function getChunk(ctx: AppContext, user: UserTable, id: string): Promise<ChunkRecord> {
  const index = ctx.chunkIndex;
  const chunk = await index.get(id);
  if (!chunk) throw errors.data('Chunk not found!');
  const db = ctx.db.kysely;
  await loadChunkKb(db, await accessScopeOf(db, user.id), chunk, 'read');
  return chunk;
}

function filenameWeight(doc: DocumentTable): number {
  const w = parseJson<Record<string, unknown>>(doc.parser_config, {}).filename_embd_weight;
  return typeof w === 'number' && w >= 0 && w <= 1 ? w : 0.1;
}

export interface ChunkFields {
  content: string;
  important_kwd?: string[];
  question_kwd?: string[];
  tag_kwd?: string[];
  tag_feas?: Record<string, number>;
}

export async function createChunk(
  ctx: AppContext,
  user: UserTable,
  docId: string,
  f: ChunkFields,
): Promise<string> {
  const { doc, kb } = await chunkDoc(ctx, user, docId, 'manage');
  const index = ctx.chunkIndex;
  const id = chunkId(f.content, doc.id);
  const draft = { content_with_weight: f.content, question_kwd: f.question_kwd ?? [] };
  const vector = await embedChunk(ctx, kb.tenant_id, kb.embd_id, doc.name, draft, filenameWeight(doc));
  const tokens = countTokens(f.content);
  const existing = await index.get(id);
  const record: ChunkRecord = {
    id,
    doc_id: doc.id,
    kb_id: kb.id,
    tenant_id: kb.tenant_id,
    docnm_kwd: doc.name,
    content_with_weight: f.content,
    important_kwd: f.important_kwd ?? [],
    question_kwd: f.question_kwd ?? [],
    tag_kwd: f.tag_kwd ?? [],
    tag_feas: f.tag_feas ?? {},
    img_id: existing?.img_id ?? '',
    positions: existing?.positions ?? [],
    available_int: doc.status === '1' ? 1 : 0,
    create_time: existing?.create_time ?? Date.now(),
    doc_type_kwd: existing?.doc_type_kwd ?? null,
    mom_id: null,
    pagerank_fea: kb.pagerank,
    token_num: tokens,
    vector,
  };
  await index.upsert([record]);
  // The same content in the same document is the same chunk (its id is the content hash): replaced,
  // not counted twice.
  const added = existing ? 0 : 1;
  const tokenDelta = tokens - (existing?.token_num ?? 0);
  try {
    await ctx.db.kysely.transaction().execute((trx) => bumpCounters(trx, doc.id, kb.id, added, tokenDelta));
  } catch (err) {
    if (!existing) await index.deleteByIds(kb.id, [id]);
    throw err;
  }
  return id;
}

const QA_PREFIX = /^(问题|答案|回答|user|assistant|Q|A|Question|Answer|问|答)[\t:： ]+/i;

/** A qa chunk's text split into question and answer (API.md §7 set). */
export function splitQa(content: string): { content: string; question: string } {
  const parts = content.split(/[\n\t]/).filter((t) => t.length > 1);
  const strip = (s: string) => s.trim().replace(QA_PREFIX, '');
  const q = strip(parts[0] ?? '');
  const a = strip(parts.slice(1).join('\n'));
  const zh = hasHan(q + a);
  return { content: zh ? `问题：${q}\t回答：${a}` : `Question: ${q}\tAnswer: ${a}`, question: q };
}

export interface SetInput extends ChunkFields {
  docId: string;
  chunkId: string;
  available?: 0 | 1;
  image?: Buffer;
  imgId?: string;
}

function imageKey(imgId: string): string | null {
  const m = /^([0-9a-f]{32})-([0-9a-f]{16})$/.exec(imgId);
  return m ? `${m[1]}/${m[2]}` : null;
}

export async function setChunk(ctx: AppContext, user: UserTable, input: SetInput): Promise<void> {
  const { doc, kb } = await chunkDoc(ctx, user, input.docId, 'manage');
  const index = ctx.chunkIndex;
  const current = await index.get(input.chunkId);
  if (!current || current.doc_id !== doc.id) throw errors.data('Chunk not found!');
  let content = input.content;
  let searchText = '';
  if (doc.parser_id === 'qa') {
    const qa = splitQa(input.content);
    content = qa.content;
    searchText = qa.question;
  }
  const questions = input.question_kwd ?? current.question_kwd ?? [];
  const draft = {
    content_with_weight: content,
    search_text: searchText || undefined,
    question_kwd: questions,
  };
  const vector = await embedChunk(ctx, kb.tenant_id, kb.embd_id, doc.name, draft, filenameWeight(doc));
  const tokens = countTokens(content);
  const patch: ChunkPatch = {
    content_with_weight: content,
    search_text: searchText,
    docnm_kwd: doc.name,
    token_num: tokens,
    vector,
  };
  if (input.important_kwd) patch.important_kwd = input.important_kwd;
  if (input.question_kwd) patch.question_kwd = input.question_kwd;
  if (input.tag_kwd) patch.tag_kwd = input.tag_kwd;
  if (input.tag_feas) patch.tag_feas = input.tag_feas;
  if (input.available !== undefined) patch.available_int = input.available;
  if (input.image) {
    // Chunk images live in the document's bucket; a foreign or malformed img_id is not written.
    const wanted =
      input.imgId && input.imgId.startsWith(`${doc.id}-`) ? input.imgId : `${doc.id}-${current.id}`;
    const key = imageKey(wanted) ?? `${doc.id}/${current.id}`;
    await ctx.blobs.put(key, input.image);
    patch.img_id = key.replace('/', '-');
  }
  if (!(await index.update(current.id, patch))) throw errors.data('Chunk not found!');
  const edited = await index.get(current.id);
  if (edited && (childIdsOf(current) || childDelimiterOf(parseJson(doc.parser_config, {})))) {
    await index.upsert(await resplitChildren(ctx, kb, doc, edited, filenameWeight(doc)));
  }
  const tokenDelta = tokens - (current.token_num ?? 0);
  await ctx.db.kysely.transaction().execute((trx) => bumpCounters(trx, doc.id, kb.id, 0, tokenDelta));
}

export async function switchChunks(
  ctx: AppContext,
  user: UserTable,
  docId: string,
  ids: string[],
  available: 0 | 1,
) {
  const { doc } = await chunkDoc(ctx, user, docId, 'manage');
  if (ids.length === 0) return;
  const index = ctx.chunkIndex;
  let matched = 0;
  try {
    const family = withChildIds(await index.getMany([...new Set(ids)]));
    matched = await index.setAvailableByIds(family.length > 0 ? family : ids, available, doc.id);
  } catch {
    throw errors.data('Index updating failure');
  }
  if (matched === 0) throw errors.data('Index updating failure');
}

export async function removeChunks(
  ctx: AppContext,
  user: UserTable,
  docId: string,
  ids: string[],
): Promise<void> {
  const { doc, kb } = await chunkDoc(ctx, user, docId, 'manage');
  if (ids.length === 0) return;
  const index = ctx.chunkIndex;
  const mine = (await index.getMany([...new Set(ids)])).filter((c) => c.doc_id === doc.id);
  if (mine.length === 0) throw errors.data('Index updating failure');
  let deleted: number;
  try {
    await index.deleteByIds(
      kb.id,
      withChildIds(mine).filter((id) => !mine.some((c) => c.id === id)),
    );
    deleted = await index.deleteByIds(
      kb.id,
      mine.map((c) => c.id),
    );
  } catch {
    throw errors.data('Chunk deleting failure');
  }
  if (deleted === 0) throw errors.data('Index updating failure');
  const tokens = mine.reduce((s, c) => s + (c.token_num ?? 0), 0);
  await ctx.db.kysely.transaction().execute((trx) => bumpCounters(trx, doc.id, kb.id, -deleted, -tokens));
  for (const c of mine) {
    const key = c.img_id ? imageKey(c.img_id) : null;
    if (key) await ctx.blobs.delete(key).catch(() => undefined);
  }
}

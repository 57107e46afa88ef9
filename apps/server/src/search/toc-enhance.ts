/**
 * `toc_enhance` (dialog `prompt_config.toc_enhance`, retrieval parameter; API.md §8, §19.12), as
 * RAGFlow's retrieval by TOC: the documents of the first result page that have a table of contents
 * (`toc_extraction`, ingest/stages/toc.ts) offer their TOC entries; the KB's chat model picks the
 * entries relevant to the question; the chunks under those entries go to the top of the page (the ones
 * already there are boosted, the missing ones added), each at least as similar as the best hit.
 * Without a usable model, or when its answer cannot be read, the entries whose titles share words
 * with the question are picked instead. Nothing changes when no document has a TOC.
 */
import type { AppContext } from '../context.js';
import type { ChunkRecord } from '../chunk-index/chunk-index.js';
import { tokenFields } from '../chunk-index/fields.js';
import { tokenize } from '../chunk-index/tokenizer.js';
import { QUESTION_WORDS, STOP_WORDS } from '../chunk-index/stopwords.js';
import type { KnowledgebaseTable } from '../db/tables/knowledge.js';
import { parseJson } from '../db/json.js';
import { TOC_KIND, tocEntriesOf, type TocEntry } from '../ingest/stages/toc.js';
import type { ChatModel } from '../models/ports.js';
import { defaultModelId, modelFor } from '../models/registry.js';
import type { RetrievalHit, RetrievalResult } from './retrieval.js';

type Kb = Pick<KnowledgebaseTable, 'id' | 'tenant_id' | 'parser_config'>;

/** Documents of the page whose TOC is offered, entries shown to the model. */
const MAX_DOCS = 3;
const MAX_ENTRIES = 200;

export interface DocTocEntry extends TocEntry {
  doc_id: string;
}

export function tocPickPrompt(question: string, entries: DocTocEntry[]): string {
  return [
    'You pick the sections of documents that answer a question.',
    `Question: ${question}`,
    '',
    'Table of contents entries (number, level, title):',
    ...entries.map((e, i) => `[${i}] ${'  '.repeat(Math.max(0, e.level - 1))}L${e.level} ${e.title}`),
    '',
    'Answer with a JSON array of the numbers of the entries relevant to the question, most relevant first,',
    'for example [3, 0]. Answer [] when none is relevant. No other text.',
  ].join('\n');
}

/** Entry numbers of a model answer (in range, first occurrence kept), or null when unreadable. */
export function parsePicked(answer: string, count: number): number[] | null {
  const m = /\[[^[\]]*\]/.exec(answer.replace(/```(?:json)?/gi, ''));
  if (!m) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(m[0]);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed)) return null;
  const nums = parsed
    .map((x) => (typeof x === 'string' && /^\s*\d+\s*$/.test(x) ? Number(x) : x))
    .filter((x): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < count);
  return [...new Set(nums)];
}

/** Entries whose titles share a (non-stop) word with the question, most shared words first. */
export function lexicalPick(question: string, entries: DocTocEntry[]): number[] {
  const words = new Set(
    tokenize(question).filter((t) => !STOP_WORDS.has(t) && !QUESTION_WORDS.has(t) && t.length > 1),
  );
  return entries
    .map((e, i) => ({ i, n: tokenize(e.title).filter((t) => words.has(t)).length }))
    .filter((x) => x.n > 0)
    .sort((a, b) => b.n - a.n || a.i - b.i)
    .map((x) => x.i);
}

async function chatModelOf(ctx: AppContext, kb: Kb): Promise<ChatModel | null> {
  const own = parseJson<Record<string, unknown>>(kb.parser_config, {}).llm_id;
  const id = (typeof own === 'string' && own) || (await defaultModelId(ctx, kb.tenant_id, 'chat'));
  if (!id) return null;
  try {
    return await modelFor(ctx, kb.tenant_id, id, 'chat');
  } catch {
    return null;
  }
}

async function pick(
  model: ChatModel | null,
  question: string,
  entries: DocTocEntry[],
  signal?: AbortSignal,
): Promise<number[]> {
  if (model) {
    try {
      const answer = await model.complete([{ role: 'user', content: tocPickPrompt(question, entries) }], {
        temperature: 0.1,
        signal,
      });
      const picked = parsePicked(answer.text, entries.length);
      if (picked) return picked;
    } catch (err) {
      if (signal?.aborted) throw err;
    }
  }
  return lexicalPick(question, entries);
}

function hitOf(c: ChunkRecord, similarity: number): RetrievalHit {
  return {
    chunk_id: c.id,
    content_ltks: tokenFields(c).content_ltks.join(' '),
    content_with_weight: c.content_with_weight,
    doc_id: c.doc_id,
    docnm_kwd: c.docnm_kwd,
    kb_id: c.kb_id,
    important_kwd: c.important_kwd ?? [],
    question_kwd: c.question_kwd ?? [],
    image_id: c.img_id ?? '',
    similarity,
    vector_similarity: 0,
    term_similarity: 0,
    text_similarity: 0,
    positions: c.positions ?? [],
    doc_type_kwd: c.doc_type_kwd ?? null,
    mom_id: c.mom_id ?? null,
  };
}

export interface TocEnhanceRequest {
  kbs: readonly Kb[];
  question: string;
  /** Page size: the page keeps at most this many chunks. */
  size: number;
  signal?: AbortSignal;
}

/** The result with the chunks of the relevant TOC entries first (unchanged when there are none). */
export async function tocEnhance(
  ctx: AppContext,
  req: TocEnhanceRequest,
  result: RetrievalResult,
): Promise<RetrievalResult> {
  const kbIds = req.kbs.map((k) => k.id);
  const docIds = [...new Set(result.chunks.map((c) => c.doc_id).filter(Boolean))].slice(0, MAX_DOCS);
  if (docIds.length === 0 || kbIds.length === 0) return result;
  const index = ctx.chunkIndex;
  const tocs = await index.list({ kbIds, docIds, graphKinds: [TOC_KIND] }, 'newest', 0, docIds.length);
  const byDoc = new Map(tocs.chunks.map((t) => [t.doc_id, tocEntriesOf(t.content_with_weight)]));
  const entries: DocTocEntry[] = docIds
    .flatMap((d) => (byDoc.get(d) ?? []).map((e) => ({ ...e, doc_id: d })))
    .slice(0, MAX_ENTRIES);
  if (entries.length === 0) return result;
  const kb = req.kbs.find((k) => k.id === tocs.chunks[0]?.kb_id) ?? req.kbs[0];
  const picked = await pick(await chatModelOf(ctx, kb), req.question, entries, req.signal);
  const wanted = [...new Set(picked.flatMap((i) => entries[i].chunk_ids))].slice(0, req.size);
  if (wanted.length === 0) return result;
  const present = new Map(result.chunks.map((h) => [h.chunk_id, h]));
  const missing = wanted.filter((id) => !present.has(id));
  const fetched = new Map(
    (await index.getMany(missing))
      .filter((c) => c.available_int === 1 && kbIds.includes(c.kb_id) && !c.knowledge_graph_kwd)
      .map((c) => [c.id, c]),
  );
  const top = Math.max(0, ...result.chunks.map((h) => h.similarity));
  const boosted: RetrievalHit[] = [];
  for (const id of wanted) {
    const hit = present.get(id);
    if (hit) boosted.push({ ...hit, similarity: Math.max(hit.similarity, top) });
    else {
      const c = fetched.get(id);
      if (c) boosted.push(hitOf(c, top));
    }
  }
  if (boosted.length === 0) return result;
  const ids = new Set(boosted.map((h) => h.chunk_id));
  const rest = result.chunks.filter((h) => !ids.has(h.chunk_id));
  const added = boosted.filter((h) => !present.has(h.chunk_id)).length;
  return { ...result, total: result.total + added, chunks: [...boosted, ...rest].slice(0, req.size) };
}

/**
 * One parse task end to end (ARCHITECTURE.md): load the blob → parse + chunk in a parse worker process →
 * picture descriptions (picture method) → enrich (auto keywords/questions, document metadata when
 * `enable_metadata`, tags from tag sets) →
 * embed in batches → chunk ids (xxHash64 of content + doc id) → index upsert → counters and `Task done`.
 * Re-running a task first deletes the chunks an earlier, interrupted attempt wrote (their ids are
 * recorded on the task before indexing), so a crash never leaves duplicates; ids are content hashes,
 * so an upsert of the same chunk is idempotent anyway.
 */
import { xxh64 } from '@node-rs/xxhash';
import { progressMessage } from '@lectern/shared';
import type { AppContext } from '../context.js';
import { parseJson } from '../db/json.js';
import { documentBlobKey } from '../storage/blob-refs.js';
import type { DocumentTable, KnowledgebaseTable } from '../db/tables/knowledge.js';
import { embedChunks } from './stages/embed.js';
import { storeFieldMap } from './stages/field-map.js';
import { extractToc, tocRecord } from './stages/toc.js';
import { childDelimiterOf, embeddingInputs, familyRecords, planChildren } from './stages/children.js';
import { enrichChunks } from './stages/enrich.js';
import { extractMetadata } from './stages/metadata.js';
import { describePictures } from './stages/picture.js';
import { tagChunks } from './stages/tagging.js';
import type { TaskProgress } from '../queue/progress.js';
import { TaskLost } from '../queue/progress.js';
import { rollupDocument } from './tasks/rollup.js';
import type { ChunkRecord } from '../chunk-index/chunk-index.js';
import { updateStamps } from '../util/time.js';
import { VIDEO_EXTENSIONS } from './chunkers/picture.js';
import type { ParseChunkResult } from './parse.worker.js';
import { countTokens } from './tokens.js';
import type { ChunkDraft, ParserConfig } from './types.js';
import { effectiveParserConfig } from './parser-config.js';

/** Records per index upsert call (the event loop gets a turn between calls). */
const UPSERT_BATCH = 128;

/** 16-hex xxHash64 of `content_with_weight + doc_id` (API.md §1.8). */
export function chunkId(content: string, docId: string): string {
  return xxh64(content + docId)
    .toString(16)
    .padStart(16, '0');
}

function ids(list: string): string[] {
  return list.split(' ').filter((s) => s.length > 0);
}

function asBuffer(image: unknown): Buffer | undefined {
  if (!image) return undefined;
  if (Buffer.isBuffer(image)) return image;
  if (image instanceof Uint8Array) return Buffer.from(image.buffer, image.byteOffset, image.byteLength);
  return undefined;
}

async function loadTaskRows(ctx: AppContext, docId: string) {
  const doc = await ctx.db.kysely
    .selectFrom('document')
    .selectAll()
    .where('id', '=', docId)
    .executeTakeFirst();
  const kb = doc
    ? await ctx.db.kysely
        .selectFrom('knowledgebase')
        .selectAll()
        .where('id', '=', doc.kb_id)
        .executeTakeFirst()
    : undefined;
  return { doc, kb };
}

/** Deletes the chunks an interrupted earlier attempt of this task may have indexed. */
async function dropPartialChunks(
  ctx: AppContext,
  progress: TaskProgress,
  kbId: string,
  owner: string,
): Promise<void> {
  const partial = ids(progress.task.chunk_ids);
  if (partial.length === 0 || progress.task.progress >= 1) return;
  const index = ctx.chunkIndex;
  await index.deleteByIds(kbId, partial);
  await ctx.db.kysely
    .updateTable('task')
    .set({ chunk_ids: '' })
    .where('id', '=', progress.task.id)
    .where('lease_owner', '=', owner)
    .execute();
  await progress.report(null, progressMessage('removedPartialChunks', { count: partial.length }));
}

function toRecord(
  draft: ChunkDraft,
  id: string,
  tokens: number,
  doc: DocumentTable,
  kb: KnowledgebaseTable,
  vector: number[] | null,
  imgId: string,
  now: number,
): ChunkRecord {
  return {
    id,
    doc_id: doc.id,
    kb_id: kb.id,
    tenant_id: kb.tenant_id,
    docnm_kwd: doc.name,
    content_with_weight: draft.content_with_weight,
    search_text: draft.search_text,
    important_kwd: draft.important_kwd ?? [],
    question_kwd: draft.question_kwd ?? [],
    tag_kwd: draft.tag_kwd ?? [],
    tag_feas: draft.tag_feas ?? {},
    img_id: imgId,
    positions: draft.positions ?? [],
    available_int: doc.status === '1' ? 1 : 0,
    create_time: now,
    doc_type_kwd: draft.doc_type_kwd ?? null,
    mom_id: null,
    pagerank_fea: kb.pagerank,
    token_num: tokens,
    vector,
    extra: draft.fields,
  };
}

/**
 * Runs the claimed task behind `progress`. Throws TaskCancelled/TaskLost when it must stop, and
 * any other error for a failure (the worker host turns it into the task's `[ERROR]` line).
 */
export async function runParseTask(
  ctx: AppContext,
  progress: TaskProgress,
  owner: string,
  signal: AbortSignal,
): Promise<void> {
  const task = progress.task;
  const { doc, kb } = await loadTaskRows(ctx, task.doc_id);
  if (!doc || !kb) throw new TaskLost();
  await dropPartialChunks(ctx, progress, kb.id, owner);
  const config = effectiveParserConfig(doc.parser_id, parseJson<ParserConfig>(doc.parser_config, {}));
  await progress.reportLazily(0.1, progressMessage('startParse'));

  let result: ParseChunkResult = { chunks: [], tokens: [], notes: [] };
  let bytes: Buffer | null = null;
  const blobKey = documentBlobKey(doc);
  if (doc.type !== 'virtual' && blobKey) {
    bytes = await ctx.blobs.get(blobKey);
    if (!bytes) throw new Error(progressMessage('fileMissing'));
    result = await ctx.parsePool.run<ParseChunkResult>(
      'parse-chunk',
      {
        bytes,
        ext: doc.suffix,
        fileName: doc.name,
        fromPage: task.from_page,
        toPage: task.to_page,
        parserId: doc.parser_id,
        config,
        language: kb.language,
        docKey: blobKey,
      },
      // The document's tasks go to the worker that already opened it (parse.worker's PDF cache).
      {
        signal,
        affinity: blobKey,
        onProgress: (f, msg) => progress.reportLazily(0.1 + 0.7 * Math.max(0, Math.min(1, f)), msg),
      },
    );
  } else {
    await progress.reportLazily(0.8, progressMessage('finishParse'));
  }
  for (const note of result.notes) await progress.reportLazily(null, note);
  await storeFieldMap(ctx, kb.id, result.fieldMap, progress);
  let drafts = result.chunks;
  if (doc.parser_id === 'picture' && doc.type === 'visual' && !VIDEO_EXTENSIONS.includes(doc.suffix)) {
    drafts = await describePictures(ctx, kb.tenant_id, { bytes, ext: doc.suffix }, drafts, progress, signal);
    result.tokens = drafts.map((d) => countTokens(d.content_with_weight));
  }
  await progress.reportLazily(0.8, progressMessage('generateChunks', { count: drafts.length }));

  const llmId = typeof config.llm_id === 'string' && config.llm_id ? config.llm_id : '';
  await enrichChunks(ctx, kb.tenant_id, llmId, drafts, config, progress, signal);
  await extractMetadata(ctx, doc, kb, llmId, drafts, progress, signal);
  await tagChunks(ctx, kb, drafts, progress);
  const weight = typeof config.filename_embd_weight === 'number' ? config.filename_embd_weight : 0.1;
  const children = planChildren(drafts, childDelimiterOf(config));
  const vectors = await embedChunks(
    ctx,
    kb.tenant_id,
    kb.embd_id,
    doc.name,
    embeddingInputs(drafts, children),
    weight,
    progress,
    signal,
  );

  // Ids first, written ahead on the task so a retry can remove a partial upsert.
  const now = Date.now();
  const records = new Map<string, ChunkRecord>();
  let tokenSum = 0;
  let counted = 0;
  let v = 0;
  drafts.forEach((d, i) => {
    const id = chunkId(d.content_with_weight, doc.id);
    if (records.has(id)) {
      v += Math.max(1, children[i].length);
      return;
    }
    const image = asBuffer(d.image);
    const tokens = result.tokens[i] ?? 0;
    tokenSum += tokens;
    counted++;
    const base = toRecord(d, id, tokens, doc, kb, null, image ? `${doc.id}-${id}` : '', now);
    for (const r of familyRecords(base, children[i], () => vectors[v++] ?? null)) records.set(r.id, r);
  });
  if (config.toc_extraction === true) {
    const draftIds = drafts.map((d) => chunkId(d.content_with_weight, doc.id));
    const toc = await extractToc(ctx, kb.tenant_id, llmId, drafts, draftIds, progress, signal);
    const id = chunkId('\u0000toc', doc.id);
    if (toc) records.set(id, tocRecord(toRecord(drafts[0], id, 0, doc, kb, null, '', now), id, toc, now));
  }
  const chunkIds = [...records.keys()];
  const written = await ctx.db.kysely
    .updateTable('task')
    .set({ chunk_ids: chunkIds.join(' ') })
    .where('id', '=', task.id)
    .where('lease_owner', '=', owner)
    .where('cancel', '=', 0)
    .executeTakeFirst();
  if (Number(written.numUpdatedRows) === 0) await progress.whyStopped();

  const indexStarted = Date.now();
  for (const [i, d] of drafts.entries()) {
    const image = asBuffer(d.image);
    if (image) await ctx.blobs.put(`${doc.id}/${chunkId(d.content_with_weight, doc.id)}`, image);
    if (i % 64 === 63) signal.throwIfAborted();
  }
  const index = ctx.chunkIndex;
  const all = [...records.values()];
  for (let i = 0; i < all.length; i += UPSERT_BATCH) {
    await index.upsert(all.slice(i, i + UPSERT_BATCH));
    if (i + UPSERT_BATCH < all.length) {
      await progress.reportLazily(0.95 + (0.04 * (i + UPSERT_BATCH)) / all.length);
      await new Promise<void>((r) => setImmediate(r));
    }
  }
  const indexSeconds = ((Date.now() - indexStarted) / 1000).toFixed(2);
  await finishTask(ctx, progress, owner, doc, kb, chunkIds, counted, tokenSum, [
    progressMessage('indexingDone', { seconds: indexSeconds }),
    progressMessage('taskDone', { seconds: progress.elapsed().toFixed(2) }),
  ]);
}

/**
 * Marks the task done and adds its chunks and tokens to the document and KB counters, in one
 * transaction, only while the task is still ours and not cancelled. Otherwise the chunks it just
 * indexed are removed again when no other task of the document claims them.
 */
async function finishTask(
  ctx: AppContext,
  progress: TaskProgress,
  owner: string,
  doc: DocumentTable,
  kb: KnowledgebaseTable,
  chunkIds: string[],
  /** Chunks the counters count: child chunks are not counted (their parents are). */
  counted: number,
  tokens: number,
  lines: string[],
): Promise<void> {
  const task = progress.task;
  const log = progress.logWith(...lines);
  const done = await ctx.db.kysely.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable('task')
      .set({
        progress: 1,
        progress_msg: log,
        chunk_ids: chunkIds.join(' '),
        token_num: tokens,
        process_duration: progress.elapsed(),
        ...updateStamps(),
      })
      .where('id', '=', task.id)
      .where('lease_owner', '=', owner)
      .where('cancel', '=', 0)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return false;
    await trx
      .updateTable('document')
      .set((eb) => ({
        chunk_num: eb('chunk_num', '+', counted),
        token_num: eb('token_num', '+', tokens),
      }))
      .where('id', '=', doc.id)
      .execute();
    await trx
      .updateTable('knowledgebase')
      .set((eb) => ({
        chunk_num: eb('chunk_num', '+', counted),
        token_num: eb('token_num', '+', tokens),
      }))
      .where('id', '=', kb.id)
      .execute();
    return true;
  });
  if (done) {
    await rollupDocument(ctx, doc.id);
    return;
  }
  const still = await ctx.db.kysely
    .selectFrom('task')
    .select('id')
    .where('id', '=', task.id)
    .executeTakeFirst();
  if (!still) {
    // The task was deleted (document removed or re-parsed with clearing): take our chunks back out,
    // except those a newer task of the document has claimed meanwhile.
    const others = await ctx.db.kysely
      .selectFrom('task')
      .select('chunk_ids')
      .where('doc_id', '=', doc.id)
      .execute();
    const claimed = new Set(others.flatMap((o) => ids(o.chunk_ids)));
    const orphaned = chunkIds.filter((id) => !claimed.has(id));
    if (orphaned.length > 0) await ctx.chunkIndex.deleteByIds(kb.id, orphaned);
  }
  await progress.whyStopped();
}

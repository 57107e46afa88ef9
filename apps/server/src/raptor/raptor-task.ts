/**
 * The `raptor` task kind (API.md §19.11): a summary tree over the KB's chunks, its summaries indexed
 * as chunks (so retrieval mixes leaves and summaries). Each summary chunk belongs to the document most
 * of its sources come from and cites every leaf chunk beneath it (`extra.source_chunk_ids`), its layer
 * and its children. A run replaces the previous run's summaries only once it succeeded. Documents of
 * structured data are skipped (`Raptor skipped: <reason>`).
 */
import { progressMessage } from '@lectern/shared';
import type { ChunkRecord } from '../chunk-index/chunk-index.js';
import type { AppContext } from '../context.js';
import { parseJson } from '../db/json.js';
import { docChunkRecords } from '../graph/jobs/chunks.js';
import {
  chainedReporter,
  finishKbTask,
  jobChatModel,
  jobEmbedder,
  kbDocuments,
  kbParserConfig,
  KbJobError,
  loadJobKb,
  usageLine,
} from '../graph/jobs/kb-task.js';
import { RAPTOR_PROMPT } from '../ingest/parser-config.js';
import type { TaskHandler } from '../queue/handlers.js';
import type { TaskProgress } from '../queue/progress.js';
import { buildRaptorTree, type RaptorSettings, type RaptorSummary } from './raptor.js';
import { raptorSkipLine } from './skip.js';

export const RAPTOR_MARK = 'raptor';

export function raptorSettingsOf(parserConfig: Record<string, unknown>): RaptorSettings {
  const r = (parserConfig.raptor ?? {}) as Record<string, unknown>;
  const n = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : d);
  return {
    prompt: typeof r.prompt === 'string' && r.prompt.trim() ? r.prompt : RAPTOR_PROMPT,
    max_token: n(r.max_token, 256),
    threshold: n(r.threshold, 0.1),
    max_cluster: n(r.max_cluster, 64),
    random_seed: n(r.random_seed, 0),
  };
}

export function isRaptorSummary(c: Pick<ChunkRecord, 'extra'>): boolean {
  return c.extra?.raptor_kwd === RAPTOR_MARK;
}

function summaryRecord(
  s: RaptorSummary,
  kb: { id: string; tenant_id: string; pagerank: number },
  docOf: Map<string, { id: string; name: string }>,
  now: number,
): ChunkRecord {
  const counts = new Map<string, number>();
  for (const src of s.sourceChunkIds) {
    const d = docOf.get(src);
    if (d) counts.set(d.id, (counts.get(d.id) ?? 0) + 1);
  }
  const docId = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? '';
  const doc = [...docOf.values()].find((d) => d.id === docId);
  return {
    id: s.id,
    doc_id: docId,
    kb_id: kb.id,
    tenant_id: kb.tenant_id,
    docnm_kwd: doc?.name ?? '',
    content_with_weight: s.text,
    important_kwd: [],
    question_kwd: [],
    tag_kwd: [],
    tag_feas: {},
    img_id: '',
    positions: [],
    available_int: 1,
    create_time: now,
    doc_type_kwd: null,
    mom_id: null,
    pagerank_fea: kb.pagerank,
    token_num: 0,
    vector: s.vector,
    extra: {
      raptor_kwd: RAPTOR_MARK,
      raptor_layer_int: s.layer,
      source_chunk_ids: s.sourceChunkIds,
      child_ids: s.childIds,
    },
  };
}

export async function runRaptorTask(ctx: AppContext, progress: TaskProgress, hostSignal: AbortSignal) {
  const payload = progress.payload('raptor');
  const kb = await loadJobKb(ctx, payload.kb_id);
  const settings = raptorSettingsOf(kbParserConfig(kb));
  await progress.report(0.01, progressMessage('raptorStart'));
  const embedder = await jobEmbedder(ctx, kb);
  if (!embedder) {
    throw new KbJobError(progressMessage('raptorNeedsEmbedding'));
  }
  const docs = await kbDocuments(ctx, kb.id, payload.doc_ids);
  const leaves: ChunkRecord[] = [];
  const oldSummaries: string[] = [];
  const docOf = new Map<string, { id: string; name: string }>();
  let skipped = 0;
  for (const d of docs) {
    const skipLine = raptorSkipLine(
      { parserId: d.parser_id, suffix: d.suffix, parserConfig: parseJson(d.parser_config, {}) },
      d.name,
    );
    const records = await docChunkRecords(ctx.chunkIndex, kb.id, d.id);
    for (const c of records) if (isRaptorSummary(c)) oldSummaries.push(c.id);
    if (skipLine) {
      skipped++;
      await progress.report(null, skipLine);
      continue;
    }
    for (const c of records) {
      if (isRaptorSummary(c)) continue;
      leaves.push(c);
      docOf.set(c.id, { id: d.id, name: d.name });
    }
  }
  if (docs.length > 0 && skipped === docs.length) {
    await finishKbTask(ctx, progress, 'raptor', 0, [progressMessage('raptorSkippedAll')]);
    return;
  }
  if (leaves.length === 0) throw new KbJobError(progressMessage('noDocuments', { kb: kb.id }));
  // Listings carry no vectors: read them with the records.
  const withVectors: Array<{ id: string; text: string; vector: number[] }> = [];
  for (let i = 0; i < leaves.length; i += 1000) {
    const got = await ctx.chunkIndex.getMany(leaves.slice(i, i + 1000).map((c) => c.id));
    for (const c of got)
      if (c.vector) withVectors.push({ id: c.id, text: c.content_with_weight, vector: c.vector });
  }
  await progress.report(
    0.05,
    progressMessage('raptorClustering', { chunks: withVectors.length, docs: docs.length - skipped }),
  );
  const model = await jobChatModel(ctx, kb);
  const reporter = chainedReporter(progress, hostSignal);
  const result = await buildRaptorTree(withVectors, settings, {
    model,
    embedder,
    concurrency: ctx.config.graphModelConcurrency,
    signal: reporter.signal,
    onProgress: reporter.report,
  }).catch(async (err: unknown) => {
    await reporter.flush();
    throw err;
  });
  await reporter.flush();

  const now = Date.now();
  const records = result.summaries.map((s) => summaryRecord(s, kb, docOf, now));
  const fresh = new Set(records.map((r) => r.id));
  for (let i = 0; i < records.length; i += 128) await ctx.chunkIndex.upsert(records.slice(i, i + 128));
  const stale = oldSummaries.filter((id) => !fresh.has(id));
  for (let i = 0; i < stale.length; i += 1000)
    await ctx.chunkIndex.deleteByIds(kb.id, stale.slice(i, i + 1000));
  await finishKbTask(ctx, progress, 'raptor', result.usage.totalTokens, [
    summaryTreeLine(result),
    progressMessage('raptorIndexed', { count: records.length, removed: stale.length }),
    usageLine(result.usage),
  ]);
}

function summaryTreeLine(result: Awaited<ReturnType<typeof buildRaptorTree>>): string {
  const params = {
    layers: result.layerSizes.join(' -> '),
    count: result.summaries.length,
    umap: Math.round(result.timings.umapMs),
    gmm: Math.round(result.timings.gmmMs),
  };
  return result.failedSummaries
    ? progressMessage('raptorTreeUnanswered', { ...params, failed: result.failedSummaries })
    : progressMessage('raptorTree', params);
}

export function raptorTaskHandler(ctx: AppContext): TaskHandler {
  return {
    run: (progress, signal) => runRaptorTask(ctx, progress, signal),
    describeFailure(err) {
      if (err instanceof KbJobError) return err.message;
      if (err instanceof Error && err.name !== 'ModelError') {
        return progressMessage('raptorFailed', {
          error: (err.message || 'unknown error').split('\n')[0].slice(0, 300),
        });
      }
      return undefined;
    },
  };
}

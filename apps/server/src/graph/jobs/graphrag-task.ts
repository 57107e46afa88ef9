/**
 * The `graphrag` task kind (API.md §19.10): incremental knowledge-graph extraction of a KB. Documents
 * whose chunks are already in the graph (same chunk ids) are not extracted again; documents deleted
 * since are taken out; the graph, its community reports and its index records are written only when
 * the run succeeds, so a failed or cancelled run leaves the previous graph (and retrieval) as it was.
 */
import { progressMessage } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import type { TaskHandler } from '../../queue/handlers.js';
import type { TaskProgress } from '../../queue/progress.js';
import type { ExtractionMethod } from '../extractor.js';
import { runGraphRag, type GraphRagConfig } from '../pipeline.js';
import { deleteGraphRecords, writeGraphRecords } from './index-write.js';
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
} from './kb-task.js';
import { docChunks } from './chunks.js';
import { chunkDigest, extractedDocs, loadKbGraph, saveKbGraph } from './store.js';

const DEFAULT_TYPES = ['organization', 'person', 'geo', 'event', 'category'];

export function graphConfigOf(parserConfig: Record<string, unknown>, language: string): GraphRagConfig {
  const g = (parserConfig.graphrag ?? {}) as Record<string, unknown>;
  const types = Array.isArray(g.entity_types)
    ? g.entity_types.filter((t): t is string => typeof t === 'string' && !!t.trim())
    : Array.isArray(parserConfig.entity_types)
      ? (parserConfig.entity_types as unknown[]).filter((t): t is string => typeof t === 'string')
      : [];
  return {
    entity_types: types.length ? types : DEFAULT_TYPES,
    method: (g.method === 'general' ? 'general' : 'light') as ExtractionMethod,
    resolution: g.resolution === true,
    community: g.community === true,
    language,
  };
}

export async function runGraphragTask(
  ctx: AppContext,
  progress: TaskProgress,
  hostSignal: AbortSignal,
): Promise<void> {
  const payload = progress.payload('graphrag');
  const kb = await loadJobKb(ctx, payload.kb_id);
  const config = graphConfigOf(kbParserConfig(kb), kb.language);
  await progress.report(0.01, progressMessage('graphStart'));
  const docs = await kbDocuments(ctx, kb.id);
  const wanted = payload.doc_ids?.length ? new Set(payload.doc_ids) : null;
  const extracted = await extractedDocs(ctx.db.kysely, kb.id);
  const present = new Set(docs.map((d) => d.id));
  const removed = [...extracted.entries()]
    .filter(([id, digest]) => digest && !present.has(id))
    .map(([id]) => id);

  const toExtract: Array<{ id: string; chunks: Array<{ id: string; text: string }>; digest: string }> = [];
  for (const d of docs) {
    if (wanted && !wanted.has(d.id)) continue;
    const chunks = await docChunks(ctx.chunkIndex, kb.id, d.id);
    const digest = chunkDigest(chunks.map((c) => c.id));
    if (extracted.get(d.id) === digest) continue;
    toExtract.push({ id: d.id, chunks, digest });
  }
  const stored = await loadKbGraph(ctx.db.kysely, kb.id);
  await progress.report(
    0.02,
    removed.length
      ? progressMessage('graphToExtractRemoved', {
          count: toExtract.length,
          kept: docs.length - toExtract.length,
          removed: removed.length,
        })
      : progressMessage('graphToExtract', { count: toExtract.length, kept: docs.length - toExtract.length }),
  );
  if (toExtract.length === 0 && removed.length === 0 && stored.graph) {
    await finishKbTask(ctx, progress, 'graphrag', 0, [progressMessage('graphUpToDate')]);
    return;
  }
  if (docs.length === 0 && !stored.graph) throw new KbJobError(progressMessage('noDocuments', { kb: kb.id }));

  const model = await jobChatModel(ctx, kb);
  const reporter = chainedReporter(progress, hostSignal);
  const result = await runGraphRag(
    {
      documents: toExtract.map((d) => ({ id: d.id, chunks: d.chunks })),
      existing: stored.graph,
      removedDocIds: removed,
      config,
    },
    {
      model,
      concurrency: ctx.config.graphModelConcurrency,
      signal: reporter.signal,
      onProgress: reporter.report,
    },
  ).catch(async (err: unknown) => {
    // A cancel found by a report is the reason to give, not the abort it caused.
    await reporter.flush();
    throw err;
  });
  await reporter.flush();

  const embedder = await jobEmbedder(ctx, kb);
  const reports = config.community ? result.reports : [];
  await progress.report(
    0.97,
    progressMessage('graphIndexing', { entities: result.graph.order, relations: result.graph.size }),
  );
  const written = await writeGraphRecords(ctx.chunkIndex, kb, result.graph, reports, {
    embedder,
    signal: hostSignal,
  });
  await saveKbGraph(ctx.db.kysely, kb.id, {
    graph: result.graph,
    reports,
    communities: result.communities.length,
    added: toExtract.map((d) => ({ docId: d.id, digest: d.digest, chunks: d.chunks.length })),
    removed,
  });
  await finishKbTask(ctx, progress, 'graphrag', result.usage.totalTokens, [
    progressMessage(embedder ? 'graphIndexed' : 'graphIndexedKeywordOnly', {
      written: written.written,
      embedded: written.embedded,
      deleted: written.deleted,
    }),
    usageLine(result.usage),
  ]);
}

export function graphragTaskHandler(ctx: AppContext): TaskHandler {
  return {
    run: (progress, signal) => runGraphragTask(ctx, progress, signal),
    describeFailure(err) {
      if (err instanceof KbJobError) return err.message;
      if (err instanceof Error && err.name !== 'ModelError') {
        return progressMessage('graphFailed', {
          error: (err.message || 'unknown error').split('\n')[0].slice(0, 300),
        });
      }
      return undefined;
    },
  };
}

export { deleteGraphRecords };

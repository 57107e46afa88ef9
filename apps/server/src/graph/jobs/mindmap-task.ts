/**
 * The `mindmap` task kind (API.md §19.10): one mind map per document from its chunks, and the KB's
 * mind map combining them (under the KB's name). Served by `kb/<id>/knowledge_graph` and
 * `chunk/knowledge_graph`.
 */
import { progressMessage } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import type { TaskHandler } from '../../queue/handlers.js';
import type { TaskProgress } from '../../queue/progress.js';
import { buildMindMap, combineMindMaps, type MindMapNode } from '../mindmap.js';
import { addUsage, emptyUsage } from '../ports.js';
import { docChunks } from './chunks.js';
import {
  chainedReporter,
  finishKbTask,
  jobChatModel,
  kbDocuments,
  KbJobError,
  loadJobKb,
  usageLine,
} from './kb-task.js';
import { saveMindMaps } from './store.js';

export async function runMindmapTask(ctx: AppContext, progress: TaskProgress, hostSignal: AbortSignal) {
  const payload = progress.payload('mindmap');
  const kb = await loadJobKb(ctx, payload.kb_id);
  const docs = await kbDocuments(ctx, kb.id, payload.doc_ids);
  if (docs.length === 0) throw new KbJobError(progressMessage('noDocuments', { kb: kb.id }));
  await progress.report(0.01, progressMessage('mindmapStart', { count: docs.length }));
  const model = await jobChatModel(ctx, kb);
  const usage = emptyUsage();
  const perDoc = new Map<string, MindMapNode>();
  let failed = 0;
  for (const [i, d] of docs.entries()) {
    const chunks = await docChunks(ctx.chunkIndex, kb.id, d.id);
    const reporter = chainedReporter(progress, hostSignal);
    try {
      const built = await buildMindMap(
        chunks.map((c) => c.text),
        {
          model,
          concurrency: ctx.config.graphModelConcurrency,
          language: kb.language,
          signal: reporter.signal,
        },
      );
      addUsage(usage, built.usage);
      perDoc.set(d.id, built.tree);
      reporter.report(
        0.05 + (0.9 * (i + 1)) / docs.length,
        built.failed
          ? progressMessage('mindmapDocUnusable', {
              name: d.name,
              calls: built.batches,
              failed: built.failed,
            })
          : progressMessage('mindmapDoc', { name: d.name, calls: built.batches }),
      );
    } catch (err) {
      await reporter.flush();
      if (hostSignal.aborted) throw err;
      failed++;
      reporter.report(
        undefined,
        progressMessage('mindmapDocFailed', { name: d.name, error: (err as Error).message }),
      );
    }
    await reporter.flush();
  }
  if (perDoc.size === 0) throw new KbJobError(progressMessage('mindmapNothing', { failed }));
  const tree = combineMindMaps([...perDoc.values()], kb.name);
  await saveMindMaps(ctx.db.kysely, kb.id, tree, perDoc);
  await finishKbTask(ctx, progress, 'mindmap', usage.totalTokens, [
    failed
      ? progressMessage('mindmapBuiltFailed', { count: perDoc.size, failed })
      : progressMessage('mindmapBuilt', { count: perDoc.size }),
    usageLine(usage),
  ]);
}

export function mindmapTaskHandler(ctx: AppContext): TaskHandler {
  return {
    run: (progress, signal) => runMindmapTask(ctx, progress, signal),
    describeFailure(err) {
      if (err instanceof KbJobError) return err.message;
      if (err instanceof Error && err.name !== 'ModelError') {
        return progressMessage('mindmapFailed', {
          error: (err.message || 'unknown error').split('\n')[0].slice(0, 300),
        });
      }
      return undefined;
    },
  };
}

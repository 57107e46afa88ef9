/**
 * What the three KB-level jobs (knowledge graph, RAPTOR, mind map) share: loading their KB, the models
 * they run on (the KB's chat model — `parser_config.llm_id`, else the tenant's default — and its
 * embedding model), a progress reporter that the synchronous callbacks of the graph/RAPTOR cores can
 * call (reports are chained; a cancel or lost lease found by a report aborts the run), and the final
 * write that ends the task and stamps the KB's `<kind>_task_finish_at` in one transaction.
 */
import { progressMessage } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import type { KnowledgebaseTable } from '../../db/tables/knowledge.js';
import { parseJson } from '../../db/json.js';
import { defaultModelId, embeddingAvailable, modelFor } from '../../models/registry.js';
import type { ChatModel, EmbeddingModel } from '../../models/ports.js';
import type { TaskProgress } from '../../queue/progress.js';
import { updateStamps } from '../../util/time.js';
import type { ProgressReporter, TokenUsage } from '../ports.js';

export type KbJobKind = 'graphrag' | 'raptor' | 'mindmap';

/** Thrown for a job that cannot start; its message is the task's `[ERROR]` line as it is. */
export class KbJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KbJobError';
  }
}

export async function loadJobKb(ctx: AppContext, kbId: string): Promise<KnowledgebaseTable> {
  const kb = await ctx.db.kysely
    .selectFrom('knowledgebase')
    .selectAll()
    .where('id', '=', kbId)
    .where('status', '=', '1')
    .executeTakeFirst();
  if (!kb) throw new KbJobError(progressMessage('kbGone'));
  return kb;
}

export function kbParserConfig(kb: KnowledgebaseTable): Record<string, unknown> {
  return parseJson<Record<string, unknown>>(kb.parser_config, {});
}

export async function jobChatModel(ctx: AppContext, kb: KnowledgebaseTable): Promise<ChatModel> {
  const cfg = kbParserConfig(kb);
  const own = typeof cfg.llm_id === 'string' ? cfg.llm_id : '';
  const id = own || (await defaultModelId(ctx, kb.tenant_id, 'chat'));
  if (!id) {
    throw new KbJobError(progressMessage('noChatModel'));
  }
  try {
    return await modelFor(ctx, kb.tenant_id, id, 'chat');
  } catch (err) {
    throw new KbJobError(progressMessage('chatModelUnusable', { model: id, error: (err as Error).message }));
  }
}

/** The KB's embedding model, or null when the KB is keyword-only. */
export async function jobEmbedder(ctx: AppContext, kb: KnowledgebaseTable): Promise<EmbeddingModel | null> {
  if (!(await embeddingAvailable(ctx, kb.tenant_id, kb.embd_id))) return null;
  return modelFor(ctx, kb.tenant_id, kb.embd_id, 'embedding');
}

/**
 * A reporter for the cores' synchronous progress callbacks, and the signal the run must use: aborted
 * by the worker host (cancel, lost lease) or by a report that found the task cancelled.
 */
export function chainedReporter(
  progress: TaskProgress,
  hostSignal: AbortSignal,
): { report: ProgressReporter; signal: AbortSignal; flush(): Promise<void> } {
  const controller = new AbortController();
  const onHostAbort = () => controller.abort(hostSignal.reason);
  if (hostSignal.aborted) onHostAbort();
  else hostSignal.addEventListener('abort', onHostAbort, { once: true });
  let chain: Promise<void> = Promise.resolve();
  let stopped: unknown = null;
  const report: ProgressReporter = (value, message) => {
    chain = chain
      .then(() => (stopped ? undefined : progress.report(value ?? null, message)))
      .catch((err: unknown) => {
        stopped ??= err;
        controller.abort(err);
      });
  };
  return {
    report,
    signal: controller.signal,
    async flush() {
      await chain;
      if (stopped) throw stopped;
    },
  };
}

export function usageLine(usage: TokenUsage): string {
  return progressMessage('tokenUsage', {
    prompt: usage.promptTokens,
    completion: usage.completionTokens,
    total: usage.totalTokens,
  });
}

const FINISH_COLUMN = {
  graphrag: ['graphrag_task_id', 'graphrag_task_finish_at'],
  raptor: ['raptor_task_id', 'raptor_task_finish_at'],
  mindmap: ['mindmap_task_id', 'mindmap_task_finish_at'],
} as const;

/** Ends the task (progress 1, its token count) and stamps the KB, while the task is still ours. */
export async function finishKbTask(
  ctx: AppContext,
  progress: TaskProgress,
  kind: KbJobKind,
  tokens: number,
  lines: string[],
): Promise<boolean> {
  const task = progress.task;
  const log = progress.logWith(
    ...lines,
    progressMessage('taskDone', { seconds: progress.elapsed().toFixed(2) }),
  );
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable('task')
      .set({
        progress: 1,
        progress_msg: log,
        token_num: Math.round(tokens),
        process_duration: progress.elapsed(),
        ...updateStamps(),
      })
      .where('id', '=', task.id)
      .where('lease_owner', '=', progress.owner)
      .where('cancel', '=', 0)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return false;
    const [idColumn, finishColumn] = FINISH_COLUMN[kind];
    await trx
      .updateTable('knowledgebase')
      .set({ [finishColumn]: Date.now() })
      .where('id', '=', task.kb_id)
      .where(idColumn, '=', task.id)
      .execute();
    return true;
  });
}

/** Documents of the KB that hold chunks, in creation order. */
export async function kbDocuments(ctx: AppContext, kbId: string, onlyIds?: string[]) {
  let q = ctx.db.kysely
    .selectFrom('document')
    .select(['id', 'name', 'parser_id', 'suffix', 'parser_config', 'chunk_num'])
    .where('kb_id', '=', kbId)
    .where('status', '=', '1')
    .where('chunk_num', '>', 0);
  if (onlyIds && onlyIds.length > 0) q = q.where('id', 'in', onlyIds);
  return q.orderBy('create_time', 'asc').execute();
}

/**
 * KB settings routes of API.md §5 beyond create/update: the metadata-extraction setting, the
 * embedding-switch check (stored vectors against the new model's), and unbinding a KB-level job
 * (graph, RAPTOR, mind map) — its running task rows cancelled by kind, the KB's task id cleared.
 */
import { progressMessage, PROGRESS_CANCELED_MARK, RetCode } from '@lectern/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { parseJson, toJson } from '../../db/json.js';
import type { UserTable } from '../../db/types.js';
import type { KnowledgebaseTable } from '../../db/tables/knowledge.js';
import { ApiError, errors } from '../../http/envelope.js';
import { clock } from '../../queue/log.js';
import { accessScopeOf, loadKb } from '../../policy/index.js';
import { cosine } from '../../search/scoring.js';
import { updateStamps } from '../../util/time.js';
import { embedChunk } from '../chunk/embed.js';
import { findKb } from './service.js';

async function managedKb(ctx: AppContext, user: UserTable, kbId: string): Promise<KnowledgebaseTable> {
  const db = ctx.db.kysely;
  return loadKb(db, await accessScopeOf(db, user.id), kbId, 'manage');
}

/** `kb/update_metadata_setting`: `parser_config.metadata` and `enable_metadata` (default true). */
export async function updateMetadataSetting(
  ctx: AppContext,
  user: UserTable,
  kbId: string,
  metadata: unknown,
  enable: boolean,
): Promise<KnowledgebaseTable> {
  const kb = await managedKb(ctx, user, kbId);
  const config = parseJson<Record<string, unknown>>(kb.parser_config, {});
  config.metadata = metadata;
  config.enable_metadata = enable;
  await ctx.db.kysely
    .updateTable('knowledgebase')
    .set({ parser_config: toJson(config), ...updateStamps() })
    .where('id', '=', kb.id)
    .execute();
  const fresh = await findKb(ctx, kb.id);
  if (!fresh) throw errors.data("Can't find this dataset!");
  return fresh;
}

/** Mean cosine between stored and re-embedded vectors a switch needs (API.md §5). */
export const EMBEDDING_SWITCH_THRESHOLD = 0.9;
const SWITCH_FAILED =
  'Embedding model switch failed: the average similarity between old and new vectors is below 0.9, indicating incompatible vector spaces.';

export interface EmbeddingCheck {
  summary: {
    sampled: number;
    valid: number;
    avg_cos_sim: number;
    min_cos_sim: number;
    max_cos_sim: number;
  };
  results: Array<{ chunk_id: string; doc_id: string; doc_name: string; cos_sim: number | null }>;
}

/**
 * `kb/check_embedding`: re-embeds `checkNum` sampled chunks (those with a stored vector) with
 * `embdId` the way ingestion does and compares them with the stored vectors. Below the threshold
 * the answer is code 10 with the figures in `data`.
 */
export async function checkEmbedding(
  ctx: AppContext,
  user: UserTable,
  kbId: string,
  embdId: string,
  checkNum: number,
): Promise<EmbeddingCheck> {
  const kb = await managedKb(ctx, user, kbId);
  const { chunks } = await ctx.chunkIndex.list({ kbIds: [kb.id] }, 'newest', 0, 1024);
  // A deterministic spread over the KB rather than the newest few: every k-th chunk (listings
  // carry no vectors, so the sampled ones are read in full).
  const step = Math.max(1, Math.floor(chunks.length / Math.max(1, checkNum)));
  const picked = chunks.filter((_, i) => i % step === 0).map((c) => c.id);
  const full = await ctx.chunkIndex.getMany(picked);
  const sample = full.filter((c) => Array.isArray(c.vector) && c.vector.length > 0).slice(0, checkNum);
  const results: EmbeddingCheck['results'] = [];
  for (const c of sample) {
    const docs = await ctx.db.kysely
      .selectFrom('document')
      .select(['parser_config'])
      .where('id', '=', c.doc_id)
      .executeTakeFirst();
    const w = parseJson<Record<string, unknown>>(docs?.parser_config, {}).filename_embd_weight;
    const weight = typeof w === 'number' && w >= 0 && w <= 1 ? w : 0.1;
    const text = {
      content_with_weight: c.content_with_weight,
      // An empty stored search text means "the content" (qa chunks store the question there).
      search_text: c.search_text || undefined,
      question_kwd: c.question_kwd ?? [],
    };
    const fresh = await embedChunk(ctx, kb.tenant_id, embdId, c.docnm_kwd, text, weight);
    const sim = fresh && c.vector && fresh.length === c.vector.length ? cosine(fresh, c.vector) : null;
    results.push({ chunk_id: c.id, doc_id: c.doc_id, doc_name: c.docnm_kwd, cos_sim: sim });
  }
  const sims = results.map((r) => r.cos_sim).filter((s): s is number => s !== null);
  const avg = sims.length > 0 ? sims.reduce((a, b) => a + b, 0) / sims.length : 0;
  const check: EmbeddingCheck = {
    summary: {
      sampled: sample.length,
      valid: sims.length,
      avg_cos_sim: avg,
      min_cos_sim: sims.length > 0 ? Math.min(...sims) : 0,
      max_cos_sim: sims.length > 0 ? Math.max(...sims) : 0,
    },
    results,
  };
  if (avg < EMBEDDING_SWITCH_THRESHOLD) throw new ApiError(RetCode.NOT_EFFECTIVE, SWITCH_FAILED, check);
  return check;
}

export const KB_JOB_KINDS = ['graphrag', 'raptor', 'mindmap'] as const;
export type KbJobKind = (typeof KB_JOB_KINDS)[number];

/**
 * `kb/unbind_task`: cancels the KB's unfinished tasks of that kind (idle ones end at once, running
 * ones stop at their next progress report) and clears the KB's task id and finish time.
 */
export async function unbindTask(
  ctx: AppContext,
  user: UserTable,
  kbId: string,
  kind: KbJobKind,
): Promise<void> {
  const kb = await managedKb(ctx, user, kbId);
  const now = Date.now();
  const line = `${clock(now)} ${progressMessage('taskCanceled')}${PROGRESS_CANCELED_MARK}`;
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const unfinished = trx
      .updateTable('task')
      .where('kb_id', '=', kb.id)
      .where('kind', '=', kind)
      .where('progress', '>=', 0)
      .where('progress', '<', 1);
    await unfinished.set({ cancel: 1, ...updateStamps(now) }).execute();
    await unfinished
      .set({
        progress: -1,
        progress_msg: sql<string>`case when progress_msg = '' then ${line} else progress_msg || ${`\n${line}`} end`,
      })
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .execute();
    await trx
      .updateTable('knowledgebase')
      .set({ [`${kind}_task_id`]: null, [`${kind}_task_finish_at`]: null, ...updateStamps(now) })
      .where('id', '=', kb.id)
      .execute();
  });
}

/**
 * Auto-tagging from tag sets (API.md §19.6 `tag_kb_ids`/`topn_tags`, §19.7 `tag`): every chunk of a KB
 * that lists tag-set KBs (parser_id `tag`, rows carrying `tag_kwd`) gets the `topn_tags` best tags.
 * For each chunk the most similar tag rows are retrieved keyword-only with `retrieve()`; each row's
 * tags collect its similarity, and a tag's score is that sum times an inverse-frequency factor
 * `ln(1 + N / count(tag))` over the tag sets (so a tag written on nearly every row does not win by
 * volume alone). The best `topn_tags` positive scores become `tag_feas` (tag → score, 4 decimals) and
 * are added to `tag_kwd`.
 */
import { progressMessage } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { parseJson } from '../../db/json.js';
import type { ChunkDraft, ParserConfig } from '../types.js';
import type { ChunkIndex } from '../../chunk-index/chunk-index.js';
import { retrieve } from '../../search/retrieval.js';
import type { TaskProgress } from '../../queue/progress.js';
import { effectiveParserConfig } from '../parser-config.js';

/** Tag rows retrieved per chunk. */
const NEIGHBOURS = 32;
/** Characters of a chunk used as the query (the query planner keeps at most 256 terms anyway). */
const QUERY_CHARS = 4000;

export function topnTags(config: ParserConfig): number {
  const n = Math.floor(Number(config.topn_tags));
  return Number.isFinite(n) && n >= 1 ? Math.min(10, n) : 3;
}

/** The KB's tag-set KBs that exist, belong to the same tenant and use the `tag` method. */
export async function tagSetKbIds(ctx: AppContext, tenantId: string, ids: unknown): Promise<string[]> {
  const wanted = Array.isArray(ids)
    ? ids.filter((x): x is string => typeof x === 'string' && x.length > 0)
    : [];
  if (wanted.length === 0) return [];
  const rows = await ctx.db.kysely
    .selectFrom('knowledgebase')
    .select('id')
    .where('id', 'in', wanted)
    .where('tenant_id', '=', tenantId)
    .where('parser_id', '=', 'tag')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Scores tags for one text: similarity-weighted votes of the nearest tag rows times the tags'
 * inverse frequency. Returns the best `topn` as `tag → score` (highest first).
 */
export async function scoreTags(
  index: ChunkIndex,
  tagKbIds: string[],
  text: string,
  counts: Map<string, number>,
  total: number,
  topn: number,
  tagsOf: Map<string, string[]>,
): Promise<Record<string, number>> {
  const question = text.slice(0, QUERY_CHARS).trim();
  if (!question) return {};
  const res = await retrieve(index, {
    question,
    kbIds: tagKbIds,
    size: NEIGHBOURS,
    similarityThreshold: 0,
    queryVector: null,
  });
  const missing = res.chunks.map((h) => h.chunk_id).filter((id) => !tagsOf.has(id));
  if (missing.length > 0) for (const c of await index.getMany(missing)) tagsOf.set(c.id, c.tag_kwd ?? []);
  const votes = new Map<string, number>();
  for (const hit of res.chunks) {
    if (!(hit.similarity > 0)) continue;
    for (const tag of tagsOf.get(hit.chunk_id) ?? []) votes.set(tag, (votes.get(tag) ?? 0) + hit.similarity);
  }
  const scored = [...votes.entries()]
    .map(([tag, v]) => [tag, v * Math.log(1 + total / Math.max(1, counts.get(tag) ?? 1))] as const)
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, topn);
  return Object.fromEntries(scored.map(([tag, s]) => [tag, Math.round(s * 10_000) / 10_000]));
}

/**
 * Tags the drafts of a KB whose parser_config lists tag-set KBs (nothing to do otherwise, or for
 * drafts of a tag-set KB itself, which carry their own tags).
 */
export async function tagChunks(
  ctx: AppContext,
  kb: { tenant_id: string; parser_id: string; parser_config: unknown },
  drafts: ChunkDraft[],
  progress: TaskProgress,
): Promise<void> {
  if (drafts.length === 0 || kb.parser_id === 'tag') return;
  const config = effectiveParserConfig(kb.parser_id, parseJson<ParserConfig>(kb.parser_config, {}));
  if (!Array.isArray(config.tag_kb_ids) || config.tag_kb_ids.length === 0) return;
  const tagKbIds = await tagSetKbIds(ctx, kb.tenant_id, config.tag_kb_ids);
  if (tagKbIds.length === 0) {
    await progress.report(null, progressMessage('taggingNoTagKb'));
    return;
  }
  const index = ctx.chunkIndex;
  const counted = await index.tagCounts(tagKbIds);
  if (counted.length === 0) {
    await progress.report(null, progressMessage('taggingNoTags'));
    return;
  }
  const counts = new Map(counted);
  const total = counted.reduce((s, [, n]) => s + n, 0);
  const topn = topnTags(config);
  const started = Date.now();
  const tagsOf = new Map<string, string[]>();
  let tagged = 0;
  for (const [i, d] of drafts.entries()) {
    if (i % 16 === 0) await progress.checkCancel();
    const text = [d.search_text ?? d.content_with_weight, ...(d.important_kwd ?? [])].join('\n');
    const feas = await scoreTags(index, tagKbIds, text, counts, total, topn, tagsOf);
    const tags = Object.keys(feas);
    if (tags.length === 0) continue;
    d.tag_feas = feas;
    d.tag_kwd = [...new Set([...(d.tag_kwd ?? []), ...tags])];
    tagged++;
  }
  await progress.report(
    null,
    progressMessage('taggingDone', { count: tagged, seconds: ((Date.now() - started) / 1000).toFixed(2) }),
  );
}

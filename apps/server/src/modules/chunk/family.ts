/**
 * Parent/child chunks in the chunk routes (`children_delimiter`, ingest/stages/children.ts): people
 * list, edit, switch and remove the parents; their children follow. A keyword search over a
 * document matches children, and shows their parents.
 */
import type { AppContext } from '../../context.js';
import type { ChunkIndex, ChunkRecord } from '../../chunk-index/chunk-index.js';
import { childIdsOf } from '../../chunk-index/fields.js';
import { parseJson } from '../../db/json.js';
import type { DocumentTable, KnowledgebaseTable } from '../../db/tables/knowledge.js';
import { childDelimiterOf, childTexts, familyRecords } from '../../ingest/stages/children.js';
import { embedChunk } from './embed.js';

/** The ids plus the ids of the children of those that are parents. */
export function withChildIds(chunks: ChunkRecord[]): string[] {
  return [...new Set(chunks.flatMap((c) => [c.id, ...(childIdsOf(c) ?? [])]))];
}

/** Search hits with each child replaced by its parent (first occurrence kept, order kept). */
export async function parentsOfHits(index: ChunkIndex, hits: ChunkRecord[]): Promise<ChunkRecord[]> {
  const momIds = [...new Set(hits.flatMap((c) => (c.mom_id ? [c.mom_id] : [])))];
  if (momIds.length === 0) return hits;
  const parents = new Map((await index.getMany(momIds)).map((p) => [p.id, p]));
  const seen = new Set<string>();
  const out: ChunkRecord[] = [];
  for (const c of hits) {
    const shown = (c.mom_id && parents.get(c.mom_id)) || c;
    if (seen.has(shown.id)) continue;
    seen.add(shown.id);
    out.push(shown);
  }
  return out;
}

/**
 * After a parent's text changed: its old children are replaced by the children of the new text
 * (embedded again), or it becomes a plain chunk when the new text no longer splits. `edited` is the
 * record as the edit stored it (with the vector of its new text). Returns the records to upsert.
 */
export async function resplitChildren(
  ctx: AppContext,
  kb: Pick<KnowledgebaseTable, 'id' | 'tenant_id' | 'embd_id'>,
  doc: Pick<DocumentTable, 'name' | 'parser_config'>,
  edited: ChunkRecord,
  weight: number,
): Promise<ChunkRecord[]> {
  const old = childIdsOf(edited) ?? [];
  const delimiter = childDelimiterOf(parseJson<Record<string, unknown>>(doc.parser_config, {}));
  const texts = childTexts(edited.content_with_weight, delimiter);
  if (old.length > 0) await ctx.chunkIndex.deleteByIds(kb.id, old);
  const vectors: Array<number[] | null> = [];
  for (const text of texts) {
    const draft = { content_with_weight: text, question_kwd: [] };
    vectors.push(await embedChunk(ctx, kb.tenant_id, kb.embd_id, doc.name, draft, weight));
  }
  const extra = { ...(edited.extra ?? {}) };
  delete extra.child_ids;
  // Unsplit: a plain chunk with the vector the edit gave it.
  if (texts.length === 0) return [{ ...edited, extra }];
  let v = 0;
  return familyRecords({ ...edited, extra }, texts, () => vectors[v++] ?? null);
}

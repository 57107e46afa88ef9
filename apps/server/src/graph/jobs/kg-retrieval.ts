/**
 * The `use_kg` step of a retrieval (API.md §19.10): the knowledge-graph chunk built from the searched
 * KBs' graph records, put first in the results. The question is read for entity types and names by the
 * first KB's chat model when it has one (a model failure falls back to the plain question); KBs
 * without a graph add nothing.
 */
import type { AppContext } from '../../context.js';
import type { KnowledgebaseTable } from '../../db/tables/knowledge.js';
import { parseJson } from '../../db/json.js';
import { defaultModelId, modelFor } from '../../models/registry.js';
import type { GraphChatModel } from '../ports.js';
import type { CommunityReport } from '../reports.js';
import { useKgRetrieval, type UseKgResult } from '../use-kg.js';
import { kgLookups } from './kg-lookups.js';

type Kb = Pick<KnowledgebaseTable, 'id' | 'tenant_id' | 'parser_config'>;

async function rewriteModel(ctx: AppContext, kb: Kb): Promise<GraphChatModel | undefined> {
  const own = parseJson<Record<string, unknown>>(kb.parser_config, {}).llm_id;
  const id = (typeof own === 'string' && own) || (await defaultModelId(ctx, kb.tenant_id, 'chat'));
  if (!id) return undefined;
  try {
    return await modelFor(ctx, kb.tenant_id, id, 'chat');
  } catch {
    return undefined;
  }
}

export interface KgChunkRequest {
  kbs: readonly Kb[];
  question: string;
  queryVector: number[] | null;
  /** Read entity types and names out of the question with the KB's chat model (default true). */
  rewrite?: boolean;
  signal?: AbortSignal;
}

/** The graph part of a retrieval, or null when the KBs hold no graph. */
export async function kgRetrieval(ctx: AppContext, req: KgChunkRequest): Promise<UseKgResult | null> {
  const kbIds = req.kbs.map((k) => k.id);
  if (kbIds.length === 0) return null;
  const graphs = await ctx.db.kysely
    .selectFrom('kb_graph')
    .select(['kb_id', 'type_index', 'entity_num', 'reports'])
    .where('kb_id', 'in', kbIds)
    .where('entity_num', '>', 0)
    .execute();
  if (graphs.length === 0) return null;
  const types = new Set<string>();
  for (const g of graphs)
    Object.keys(parseJson<Record<string, unknown>>(g.type_index, {})).forEach((t) => types.add(t));
  const model = req.rewrite === false ? undefined : await rewriteModel(ctx, req.kbs[0]);
  const result = await useKgRetrieval(req.question, {
    lookups: kgLookups({
      index: ctx.chunkIndex,
      db: ctx.db.kysely,
      kbIds: graphs.map((g) => g.kb_id),
      queryVector: req.queryVector,
      reports: graphs.flatMap((g) => parseJson<CommunityReport[]>(g.reports, [])),
    }),
    model,
    entityTypes: [...types],
    signal: req.signal,
  });
  return result.content ? result : null;
}

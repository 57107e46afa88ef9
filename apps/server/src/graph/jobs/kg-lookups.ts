/**
 * `use_kg` look-ups (graph/use-kg.ts `KgLookups`) over the chunk index's graph records of the searched
 * KBs: one hybrid search (question text + keywords, and the question vector when the KBs are embedded)
 * over enabled graph records feeds both the entity and the relation look-up; relations between two
 * named entities are read by their deterministic record id; community reports come from the graph
 * rows (a KB has few; searching them among 10,000s of records costs more than reading them); entities of asked-about types come from the per-type list stored with
 * the graph (`kb_graph.type_index`).
 */
import type { ChunkIndex, ChunkRecord, SearchHit } from '../../chunk-index/chunk-index.js';
import { planSearch } from '../../chunk-index/query.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { parseJson } from '../../db/json.js';
import { relationKey } from '../kb-graph.js';
import { renderCommunityReport, type CommunityReport } from '../reports.js';
import type { EntityHit, KgLookups, NHopPath, RelationHit } from '../use-kg.js';
import { graphRecordId } from './index-write.js';

export interface KgLookupInput {
  index: ChunkIndex;
  db: Kysely<Database>;
  kbIds: string[];
  /** The question's vector in the KBs' embedding space, or null (keyword-only). */
  queryVector: number[] | null;
  /** The KBs' community reports (kb_graph.reports): few, read with the graph row, not searched. */
  reports: CommunityReport[];
}

const CANDIDATES = 256;

function parseObject(s: string): Record<string, unknown> {
  try {
    const v = JSON.parse(s) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Similarity of a hit in [0, 1]: the cosine with a vector, else the text score relative to the best. */
function similarityOf(h: SearchHit, maxText: number, vector: boolean): number {
  if (vector && h.cosine !== null) return Math.max(0, h.cosine);
  return maxText > 0 ? Math.max(0, h.textScore) / maxText : 0;
}

export function kgLookups(input: KgLookupInput): KgLookups {
  const { index, kbIds } = input;
  const searches = new Map<string, Promise<{ hits: SearchHit[]; maxText: number }>>();
  const search = (text: string, limit: number) => {
    const key = `${limit}\u0000${text}`;
    let p = searches.get(key);
    if (!p) {
      p = (async () => {
        const plan = await planSearch(index, text);
        if (!plan) return { hits: [], maxText: 0 };
        const res = await index.search({
          filter: { kbIds, available: 1, graphKinds: ['entity', 'relation', 'community_report'] },
          text: plan.text,
          vector: input.queryVector ? { values: input.queryVector, topK: limit, floor: 0 } : null,
          offset: 0,
          limit,
        });
        return { hits: res.hits, maxText: res.maxTextScore };
      })();
      searches.set(key, p);
    }
    return p;
  };

  let questionText = '';
  return {
    async searchEntities(query, topN) {
      questionText = query.text;
      const text = [query.text, ...query.keywords.filter((k) => k !== query.text)].join(' ');
      const { hits, maxText } = await search(text, CANDIDATES);
      const out: EntityHit[] = [];
      for (const h of hits) {
        const c = h.chunk;
        if (c.knowledge_graph_kwd !== 'entity' || !c.entity_kwd) continue;
        const body = parseObject(c.content_with_weight);
        out.push({
          name: c.entity_kwd,
          similarity: similarityOf(h, maxText, !!input.queryVector),
          pagerank: num(c.extra?.rank_flt),
          description: str(body.description),
          nHopPaths: parseJson<NHopPath[]>(c.extra?.n_hop_with_weight, []),
        });
      }
      return out.sort((a, b) => b.similarity - a.similarity).slice(0, topN);
    },

    async entitiesOfTypes(types, limit) {
      const rows = await input.db
        .selectFrom('kb_graph')
        .select('type_index')
        .where('kb_id', 'in', kbIds)
        .execute();
      const wanted = new Set(types.map((t) => t.toUpperCase()));
      const out: Array<{ name: string; pagerank: number }> = [];
      for (const r of rows) {
        const byType = parseJson<Record<string, Array<[string, number]>>>(r.type_index, {});
        for (const [type, list] of Object.entries(byType)) {
          if (wanted.has(type.toUpperCase())) for (const [name, pr] of list) out.push({ name, pagerank: pr });
        }
      }
      return out.sort((a, b) => b.pagerank - a.pagerank).slice(0, limit);
    },

    async searchRelations(question, topN) {
      const { hits, maxText } = await search(questionText || question, CANDIDATES).then(async (r) =>
        questionText && questionText !== question ? search(question, CANDIDATES) : r,
      );
      const out: RelationHit[] = [];
      for (const h of hits) {
        const c = h.chunk;
        if (c.knowledge_graph_kwd !== 'relation' || !c.from_entity_kwd || !c.to_entity_kwd) continue;
        out.push({
          from: c.from_entity_kwd,
          to: c.to_entity_kwd,
          similarity: similarityOf(h, maxText, !!input.queryVector),
          weight: num(c.extra?.weight_int),
          description: str(parseObject(c.content_with_weight).description),
        });
      }
      return out.sort((a, b) => b.similarity - a.similarity).slice(0, topN);
    },

    async relation(from, to) {
      const ids = kbIds.map((kb) => graphRecordId(kb, 'relation', relationKey(from, to)));
      const found: ChunkRecord[] = await index.getMany(ids);
      const c = found.find((r) => r.knowledge_graph_kwd === 'relation');
      if (!c) return null;
      return {
        description: str(parseObject(c.content_with_weight).description),
        weight: num(c.extra?.weight_int),
      };
    },

    async communityReports(entities, topN) {
      const wanted = new Set(entities);
      return input.reports
        .filter((r) => r.entities.some((e) => wanted.has(e)))
        .sort((x, y) => y.weight - x.weight)
        .slice(0, topN)
        .map((r) => {
          const { title, content } = renderCommunityReport(r);
          return { title, report: content.report, evidences: content.evidences };
        });
    },
  };
}

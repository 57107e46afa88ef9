/**
 * `use_kg` retrieval (API.md §19.10, §19.5): a pure function over injected look-ups into the chunk
 * index's graph records. It finds
 *  - entities near the question (embedding + keywords; similarity ≥ 0.3), boosted ×2 when their type is
 *    one the question asks about,
 *  - relations near the question (≥ 0.3), boosted by the n-hop paths of the found entities and by
 *    endpoints of the asked-about types; relations reached only through n-hop paths join too,
 *  - one community report about the best entities,
 * ranks entities by similarity × PageRank and relations by similarity × weight (top 6 each), and renders
 * them as CSV tables into a single synthetic chunk of at most `maxTokens` (8196) tokens that the caller
 * puts first in the results.
 */
import type { GraphChatModel, TokenUsage } from './ports.js';
import { addUsage, emptyUsage } from './ports.js';
import { firstJsonObject, stripThink, toCsv } from './text.js';
import { countTokens } from './tokens.js';

export interface NHopPath {
  /** Entity names from the entity itself outwards. */
  path: string[];
  /** Weight of each step's relation (`path[i]`–`path[i+1]`). */
  weights: number[];
}

export interface EntityHit {
  name: string;
  /** Similarity to the query in [0, 1]. */
  similarity: number;
  pagerank: number;
  description: string;
  /** Stored with the entity record (`computeNHopPaths`). */
  nHopPaths?: NHopPath[];
}

export interface RelationHit {
  from: string;
  to: string;
  similarity: number;
  weight: number;
  description: string;
}

export interface CommunityReportHit {
  title: string;
  report: string;
  evidences: string;
}

/** Look-ups the caller implements over the index's graph records of the searched knowledge bases. */
export interface KgLookups {
  /** Entity records nearest to the query (vector over names, plus keyword match), best first. */
  searchEntities(query: { text: string; keywords: string[] }, topN: number): Promise<EntityHit[]>;
  /** Entity records whose type is one of `types`, most central first. */
  entitiesOfTypes(types: string[], limit: number): Promise<Array<{ name: string; pagerank: number }>>;
  /** Relation records nearest to the question, best first. */
  searchRelations(question: string, topN: number): Promise<RelationHit[]>;
  /** The relation between two entities in either direction (for n-hop relations), or null. */
  relation(from: string, to: string): Promise<{ description: string; weight: number } | null>;
  /** Community reports that contain any of the entities, by decreasing community weight. */
  communityReports(entities: string[], topN: number): Promise<CommunityReportHit[]>;
}

export interface UseKgOptions {
  lookups: KgLookups;
  /** Reads entity types and entity names out of the question; without it the question is the keyword. */
  model?: GraphChatModel;
  /** Entity types present in the graph, offered to the model as the type pool. */
  entityTypes?: string[];
  maxTokens?: number;
  entityTopN?: number;
  relationTopN?: number;
  communityTopN?: number;
  entitySimilarity?: number;
  relationSimilarity?: number;
  signal?: AbortSignal;
}

export interface UseKgResult {
  /** The chunk text; "" when the graph had nothing relevant. */
  content: string;
  entities: Array<{ name: string; score: number }>;
  relations: Array<{ from: string; to: string; score: number }>;
  usage: TokenUsage;
}

export function queryRewritePrompt(question: string, entityTypes: string[]): string {
  return `Extract from the question (1) the types of entity the answer is about and (2) the entities the question names.
Choose types only from this list: ${JSON.stringify(entityTypes)}.
Answer one JSON object: {"answer_type_keywords": [types, most relevant first, at most 3], "entities_from_query": [names or key phrases]}.

Question: ${question}`;
}

function stringList(v: unknown): string[] {
  return Array.isArray(v)
    ? v.filter((x): x is string => typeof x === 'string' && !!x.trim()).map((x) => x.trim())
    : [];
}

async function rewriteQuery(
  question: string,
  opts: UseKgOptions,
  usage: TokenUsage,
): Promise<{ types: string[]; keywords: string[] }> {
  const fallback = { types: [], keywords: [question] };
  if (!opts.model) return fallback;
  try {
    const answer = await opts.model.complete(
      [{ role: 'user', content: queryRewritePrompt(question, opts.entityTypes ?? []) }],
      { signal: opts.signal, temperature: 0 },
    );
    addUsage(usage, answer.usage);
    const json = firstJsonObject(stripThink(answer.text));
    const obj = json ? (JSON.parse(json) as Record<string, unknown>) : {};
    const types = stringList(obj.answer_type_keywords).map((t) => t.toUpperCase());
    const keywords = stringList(obj.entities_from_query);
    return { types, keywords: keywords.length ? keywords : [question] };
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    return fallback;
  }
}

const pairKey = (a: string, b: string) => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

export async function useKgRetrieval(question: string, opts: UseKgOptions): Promise<UseKgResult> {
  const usage = emptyUsage();
  const entSim = opts.entitySimilarity ?? 0.3;
  const relSim = opts.relationSimilarity ?? 0.3;
  const { types, keywords } = await rewriteQuery(question, opts, usage);
  const [entityHits, typed, relationHits] = await Promise.all([
    opts.lookups.searchEntities({ text: question, keywords }, 56),
    types.length ? opts.lookups.entitiesOfTypes(types, 1024) : Promise.resolve([]),
    opts.lookups.searchRelations(question, 56),
  ]);
  const typedNames = new Set(typed.map((t) => t.name));

  const ents = new Map<string, { sim: number; pagerank: number; description: string }>();
  const nhop = new Map<string, { from: string; to: string; sim: number; weight: number }>();
  for (const e of entityHits) {
    if (e.similarity < entSim || ents.has(e.name)) continue;
    ents.set(e.name, { sim: e.similarity, pagerank: e.pagerank, description: e.description });
    for (const p of e.nHopPaths ?? []) {
      for (let i = 0; i + 1 < p.path.length; i++) {
        const key = pairKey(p.path[i], p.path[i + 1]);
        const cur = nhop.get(key) ?? { from: p.path[i], to: p.path[i + 1], sim: 0, weight: 0 };
        cur.sim += e.similarity / (2 + i);
        cur.weight = p.weights[i] ?? cur.weight;
        nhop.set(key, cur);
      }
    }
  }
  // P(E|Q) ∝ P(E)·P(Q|E): an entity of an asked-about type counts twice.
  for (const [name, e] of ents) if (typedNames.has(name)) e.sim *= 2;

  const typeBoost = (f: string, t: string) => 1 + (typedNames.has(f) ? 1 : 0) + (typedNames.has(t) ? 1 : 0);
  const rels = new Map<
    string,
    { from: string; to: string; sim: number; weight: number; description?: string }
  >();
  for (const r of relationHits) {
    if (r.similarity < relSim) continue;
    const key = pairKey(r.from, r.to);
    if (rels.has(key)) continue;
    const viaPaths = nhop.get(key)?.sim ?? 0;
    nhop.delete(key);
    rels.set(key, {
      from: r.from,
      to: r.to,
      sim: r.similarity * (viaPaths + typeBoost(r.from, r.to)),
      weight: r.weight,
      description: r.description,
    });
  }
  for (const [key, p] of nhop) rels.set(key, { ...p, sim: p.sim * typeBoost(p.from, p.to) });

  const topEnts = [...ents.entries()]
    .sort((a, b) => b[1].sim * b[1].pagerank - a[1].sim * a[1].pagerank || (a[0] < b[0] ? -1 : 1))
    .slice(0, opts.entityTopN ?? 6);
  const topRels = [...rels.values()]
    .sort(
      (a, b) =>
        b.sim * b.weight - a.sim * a.weight || (pairKey(a.from, a.to) < pairKey(b.from, b.to) ? -1 : 1),
    )
    .slice(0, opts.relationTopN ?? 6);

  let budget = opts.maxTokens ?? 8196;
  const entityRows: string[][] = [];
  for (const [name, e] of topEnts) {
    const row = [name, (e.sim * e.pagerank).toFixed(2), e.description];
    budget -= countTokens(row.join(','));
    if (budget <= 0) break;
    entityRows.push(row);
  }
  const relationRows: string[][] = [];
  const scored: UseKgResult['relations'] = [];
  for (const r of budget > 0 ? topRels : []) {
    let description = r.description;
    if (description === undefined) {
      const found = await opts.lookups.relation(r.from, r.to);
      if (!found) continue;
      description = found.description;
    }
    const row = [r.from, r.to, (r.sim * r.weight).toFixed(2), description];
    budget -= countTokens(row.join(','));
    if (budget <= 0) break;
    relationRows.push(row);
    scored.push({ from: r.from, to: r.to, score: r.sim * r.weight });
  }

  const parts: string[] = [];
  if (entityRows.length)
    parts.push(`\n---- Entities ----\n${toCsv(['Entity', 'Score', 'Description'], entityRows, true)}`);
  if (relationRows.length)
    parts.push(
      `\n---- Relations ----\n${toCsv(['From Entity', 'To Entity', 'Score', 'Description'], relationRows, true)}`,
    );
  if (budget > 0 && topEnts.length) {
    const reports = await opts.lookups.communityReports(
      topEnts.map(([n]) => n),
      opts.communityTopN ?? 1,
    );
    const texts: string[] = [];
    for (const [i, r] of reports.entries()) {
      const text = `# ${i + 1}. ${r.title}\n## Content\n${r.report}\n## Evidences\n${r.evidences}\n`;
      budget -= countTokens(text);
      if (budget <= 0) break;
      texts.push(text);
    }
    if (texts.length) parts.push(`\n---- Community Report ----\n${texts.join('\n')}`);
  }
  return {
    content: parts.join(''),
    entities: entityRows.map((r) => ({ name: r[0], score: Number(r[1]) })),
    relations: scored,
    usage,
  };
}

/** The result-chunk shape of API.md §7 for the knowledge-graph chunk. */
export function knowledgeGraphChunk(content: string, kbIds: string[], chunkId: string) {
  return {
    chunk_id: chunkId,
    content_ltks: '',
    content_with_weight: content,
    doc_id: '',
    docnm_kwd: 'Related content in Knowledge Graph',
    kb_id: kbIds,
    important_kwd: [] as string[],
    image_id: '',
    similarity: 1,
    vector_similarity: 1,
    term_similarity: 0,
    positions: [] as number[][],
    doc_type_kwd: null,
    mom_id: null,
  };
}

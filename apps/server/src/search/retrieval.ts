/**
 * Hybrid retrieval (API.md §19.2–§19.5): the one function behind retrieval_test, chat, agents and the
 * public retrieval API. Candidates are the chunks matching the weighted full-text query; the engine
 * orders them (0.05·text + top-K cosine + rank features) and returns one window; here each window row is
 * scored `vw·vector_similarity + (1−vw)·term_similarity + rank_fea`, thresholded, sorted and paged.
 *
 * Keyword-only (no query vector, no rerank model): §19.4 says `similarity = term_similarity`. Measured on
 * SciFact that ranks at nDCG@10 ≈ 0.63, below the engine's own BM25 order (≈ 0.685) and below the
 * required 0.67: term similarity is a weighted coverage of the question that ignores term frequency
 * and length. So by default the engine's text relevance, normalized to the best candidate (0..1),
 * takes the empty vector slot with a FIXED weight: `similarity = 0.3·text_similarity + 0.7·term_similarity
 * + rank_fea` (≈ 0.68). The client's `vector_similarity_weight` weighs a vector part that does not exist
 * here, so it must not rescale the keyword score (at vw 0 it would fall back to term similarity alone,
 * 0.627). `keywordOnlyScoring: 'term'` restores the literal rule. Hits report `vector_similarity` 0
 * in keyword-only mode and carry `text_similarity` in every mode.
 */
import type { ChunkIndex, ChunkRecord, SearchHit } from '../chunk-index/chunk-index.js';
import { highlight as highlightText } from './highlight.js';
import { MIN_SHOULD_MATCH_RETRY, minimumShouldMatchCount, planSearch } from '../chunk-index/query.js';
import { checkParams, RetrievalParamError, type RetrieveParams } from './retrieval-params.js';
import { hitTerms, queryItems } from '../chunk-index/term-similarity.js';
import { cosine, rankFeature } from './scoring.js';

export { RetrievalParamError, type RetrieveParams };

/** Share of the engine's normalized text relevance in keyword-only similarity (the rest: term similarity). */
export const KEYWORD_ONLY_TEXT_WEIGHT = 0.3;

/** Result chunk (API.md §7). */
export interface RetrievalHit {
  chunk_id: string;
  content_ltks: string;
  content_with_weight: string;
  doc_id: string;
  docnm_kwd: string;
  kb_id: string;
  important_kwd: string[];
  question_kwd: string[];
  image_id: string;
  similarity: number;
  vector_similarity: number;
  term_similarity: number;
  /** Engine text relevance normalized to the best candidate (0..1). */
  text_similarity: number;
  positions: ChunkRecord['positions'];
  doc_type_kwd: string | null;
  mom_id: string | null;
  /** Content with `<em>` marks, when `highlight` was asked for. */
  highlight?: string;
}

export interface DocAgg {
  doc_name: string;
  doc_id: string;
  count: number;
}

export interface RetrievalResult {
  total: number;
  chunks: RetrievalHit[];
  doc_aggs: DocAgg[];
  /** True when no query vector was given: candidates and scores come from the text alone. */
  keywordOnly: boolean;
  /** The question's keywords (highlighting, citations). */
  keywords: string[];
  /** Chunks that matched the full-text query (the candidates), before the window. */
  candidates: number;
}

/** Rows of engine order that scoring sees: W = max(30, ceil(64/size)·size), 30 when size is 1. */
export function windowSize(size: number): number {
  if (size <= 1) return 30;
  return Math.max(30, Math.ceil(64 / size) * size);
}

const VECTOR_FLOOR_RETRY = 0.17;

interface Scored {
  chunk: ChunkRecord;
  /** Content tokens joined by spaces. */
  contentTokens: string;
  similarity: number;
  vector: number;
  term: number;
  text: number;
}

export async function retrieve(index: ChunkIndex, input: RetrieveParams): Promise<RetrievalResult> {
  const p = checkParams(input);
  const keywordOnly = p.queryVector === null;
  const empty: RetrievalResult = {
    total: 0,
    chunks: [],
    doc_aggs: [],
    keywordOnly,
    keywords: [],
    candidates: 0,
  };
  const plan = await (p.plan ?? planSearch(index, p.question));
  const W = windowSize(p.size);
  const windowNo = Math.ceil((p.size * p.page) / W);
  const filter = { kbIds: p.kbIds, docIds: p.docIds, available: 1 as const };
  let hits: SearchHit[] = [];
  let matched = 0;
  let maxText = 0;
  if (plan) {
    const vector = p.queryVector
      ? { values: p.queryVector, topK: p.topK, floor: p.similarityThreshold }
      : null;
    const request = {
      filter,
      text: plan.text,
      vector,
      tagWeights: p.tagWeights,
      // Term similarity of the window's rows is computed where the search runs (a search thread).
      termQuery: plan.weighted,
      offset: (windowNo - 1) * W,
      limit: W,
    };
    ({ hits, matched, maxTextScore: maxText } = await index.search(request));
    const msm = plan.text.minimumShouldMatch;
    if (matched === 0 && p.docIds.length === 0 && msm > 0) {
      const looser = minimumShouldMatchCount(MIN_SHOULD_MATCH_RETRY, plan.text.groups);
      if (looser < minimumShouldMatchCount(msm, plan.text.groups)) {
        ({
          hits,
          matched,
          maxTextScore: maxText,
        } = await index.search({
          ...request,
          text: { ...plan.text, minimumShouldMatch: MIN_SHOULD_MATCH_RETRY },
          vector: vector ? { ...vector, floor: VECTOR_FLOOR_RETRY } : null,
        }));
      }
    }
  }
  if (matched === 0 && p.docIds.length > 0) {
    // No text match inside the chosen documents: their chunks in reading order.
    const listed = await index.list(filter, 'position', (windowNo - 1) * W, W);
    const withVectors = p.queryVector ? await index.getMany(listed.chunks.map((c) => c.id)) : listed.chunks;
    hits = withVectors.map((chunk) => ({
      chunk,
      textScore: 0,
      cosine: p.queryVector ? cosine(p.queryVector, chunk.vector) : null,
      engineScore: 0,
    }));
  }
  if (hits.length === 0) return { ...empty, keywords: plan?.keywords ?? [] };

  const items = queryItems(plan?.weighted ?? []);
  // The adapter's terms when it computed them (same function); else here.
  const terms = hits.map((h) => h.terms ?? hitTerms(items, h.chunk));
  let vectorScores = hits.map((h) => h.cosine ?? 0);
  if (p.rerank) {
    const texts = hits.map((h) =>
      [h.chunk.content_with_weight, h.chunk.docnm_kwd, ...(h.chunk.important_kwd ?? [])].join('\n'),
    );
    const scores = await p.rerank(p.question, texts);
    if (!Array.isArray(scores) || scores.length !== hits.length)
      throw new Error('rerank returned a wrong number of scores');
    vectorScores = scores.map((s) => (Number.isFinite(s) ? Number(s) : 0));
  }
  const vw = p.vectorSimilarityWeight;
  const textMode = keywordOnly && !p.rerank && p.keywordOnlyScoring === 'text+term';
  const noVectorPart = !textMode && !p.rerank && vectorScores.every((v) => v === 0);
  const scored: Scored[] = hits.map((h, i) => {
    const term = terms[i].similarity;
    const text = maxText > 0 ? Math.max(0, h.textScore) / maxText : 0;
    const rank = rankFeature(h.chunk, p.tagWeights);
    const vector = vectorScores[i];
    let similarity: number;
    if (textMode) similarity = KEYWORD_ONLY_TEXT_WEIGHT * text + (1 - KEYWORD_ONLY_TEXT_WEIGHT) * term + rank;
    else if (noVectorPart) similarity = term + rank;
    else similarity = vw * vector + (1 - vw) * term + rank;
    return { chunk: h.chunk, contentTokens: terms[i].contentTokens, similarity, vector, term, text };
  });
  // Stable sort: equal similarities keep the engine order.
  const kept = scored
    .map((s, i) => ({ s, i }))
    .filter(({ s }) => vw <= 0 || s.similarity >= p.similarityThreshold)
    .sort((a, b) => b.s.similarity - a.s.similarity || a.i - b.i)
    .map(({ s }) => s);

  const aggs = new Map<string, DocAgg>();
  for (const s of kept) {
    const a = aggs.get(s.chunk.doc_id);
    if (a) a.count++;
    else aggs.set(s.chunk.doc_id, { doc_name: s.chunk.docnm_kwd, doc_id: s.chunk.doc_id, count: 1 });
  }
  const k = (p.page - 1) % Math.max(1, Math.floor(W / p.size));
  let page = kept.slice(k * p.size, k * p.size + p.size);
  page = await withParents(index, page);
  const keywords = plan?.keywords ?? [];
  return {
    total: kept.length,
    chunks: page.map((s) => present(s, p.highlight ? keywords : null)),
    doc_aggs: [...aggs.values()].sort((a, b) => b.count - a.count),
    keywordOnly,
    keywords,
    candidates: matched,
  };
}

/** Children sharing a mom_id are replaced by their parent chunk (mean of their scores), re-sorted. */
async function withParents(index: ChunkIndex, page: Scored[]): Promise<Scored[]> {
  const momIds = [...new Set(page.flatMap((s) => (s.chunk.mom_id ? [s.chunk.mom_id] : [])))];
  if (momIds.length === 0) return page;
  const parents = new Map((await index.getMany(momIds)).map((c) => [c.id, c]));
  const out: Scored[] = [];
  const groups = new Map<string, Scored[]>();
  for (const s of page) {
    // A parent that is itself a hit joins its children's group (it is shown once).
    const mom =
      s.chunk.mom_id && parents.has(s.chunk.mom_id)
        ? s.chunk.mom_id
        : momIds.includes(s.chunk.id)
          ? s.chunk.id
          : null;
    if (mom) {
      const g = groups.get(mom);
      if (g) g.push(s);
      else groups.set(mom, [s]);
    } else out.push(s);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  for (const [mom, children] of groups) {
    const parent = parents.get(mom)!;
    out.push({
      chunk: { ...parent, vector: null, important_kwd: children.flatMap((c) => c.chunk.important_kwd ?? []) },
      contentTokens: children
        .map((c) => c.contentTokens)
        .filter(Boolean)
        .join(' '),
      similarity: mean(children.map((c) => c.similarity)),
      vector: mean(children.map((c) => c.vector)),
      term: mean(children.map((c) => c.term)),
      text: mean(children.map((c) => c.text)),
    });
  }
  return out.sort((a, b) => b.similarity - a.similarity);
}

function present(s: Scored, keywords: string[] | null): RetrievalHit {
  const c = s.chunk;
  const hit: RetrievalHit = {
    chunk_id: c.id,
    content_ltks: s.contentTokens,
    content_with_weight: c.content_with_weight,
    doc_id: c.doc_id,
    docnm_kwd: c.docnm_kwd,
    kb_id: c.kb_id,
    important_kwd: c.important_kwd ?? [],
    question_kwd: c.question_kwd ?? [],
    image_id: c.img_id ?? '',
    similarity: s.similarity,
    vector_similarity: s.vector,
    term_similarity: s.term,
    text_similarity: s.text,
    positions: c.positions ?? [],
    doc_type_kwd: c.doc_type_kwd ?? null,
    mom_id: c.mom_id ?? null,
  };
  if (keywords) hit.highlight = highlightText(c.content_with_weight, keywords);
  return hit;
}

/**
 * Optional entity resolution (`graphrag.resolution`, API.md §19.10): entities of the same type with
 * similar names are candidate duplicates; the model confirms or rejects them in batches of questions;
 * confirmed pairs are merged (union-find, so A≡B and B≡C merge all three).
 *
 * Candidates come from blocking, not from all pairs: names are indexed by their words (and character
 * bigrams for CJK) and only names sharing a block are compared, which keeps 10,000-entity graphs cheap.
 */
import { isAbortError, mapConcurrent } from './concurrency.js';
import { refreshEdge, refreshNode, relationKey, type KbGraph } from './kb-graph.js';
import { addUsage, emptyUsage, type GraphChatModel, type TokenUsage } from './ports.js';

const CJK_RE = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

function digits(s: string): string {
  return s.replace(/\D+/g, ' ').trim();
}

function words(s: string): string[] {
  return s.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** Whether two entity names are close enough to ask the model about. */
export function isSimilarName(a: string, b: string): boolean {
  if (a === b) return false;
  // "2023 REPORT" and "2024 REPORT" are different things, however close the spelling.
  if (digits(a) !== digits(b)) return false;
  if (!CJK_RE.test(a) && !CJK_RE.test(b)) {
    const wa = words(a);
    const wb = words(b);
    // One name is a word-wise part of the other ("APPLE" / "APPLE INC").
    const [short, long] = wa.length <= wb.length ? [wa, wb] : [wb, wa];
    if (short.length > 0 && short.every((w) => long.includes(w)) && short.join('').length >= 3) return true;
    return levenshtein(a, b) <= Math.floor(Math.min(a.length, b.length) / 3);
  }
  const sa = new Set(a);
  const sb = new Set(b);
  let shared = 0;
  for (const ch of sa) if (sb.has(ch)) shared++;
  const max = Math.max(sa.size, sb.size);
  return max < 4 ? shared > 1 && shared >= Math.min(sa.size, sb.size) : shared / max >= 0.8;
}

function blocks(name: string): string[] {
  const out = new Set<string>();
  for (const w of words(name)) {
    if (CJK_RE.test(w)) for (let i = 0; i + 1 < w.length; i++) out.add(w.slice(i, i + 2));
    else if (w.length >= 2) out.add(w);
  }
  // Names differing by a typo in their only word still share a prefix block.
  if (!CJK_RE.test(name) && name.length >= 4) out.add(`^${name.slice(0, 3)}`);
  return [...out];
}

/** Candidate pairs `[a, b]` (a < b) of same-type entities with similar names, at most `maxPairs`. */
export function resolutionCandidates(graph: KbGraph, maxPairs = 20_000): Array<[string, string]> {
  const byTypeBlock = new Map<string, string[]>();
  graph.forEachNode((name, attrs) => {
    for (const b of blocks(name)) {
      const key = `${attrs.entity_type}\u0000${b}`;
      const list = byTypeBlock.get(key);
      if (list) list.push(name);
      else byTypeBlock.set(key, [name]);
    }
  });
  const seen = new Set<string>();
  const pairs: Array<[string, string]> = [];
  for (const members of byTypeBlock.values()) {
    // A block shared by hundreds of names (a common word) says nothing; skip it.
    if (members.length < 2 || members.length > 200) continue;
    for (let i = 0; i < members.length; i++) {
      for (let j = i + 1; j < members.length; j++) {
        const [a, b] = members[i] < members[j] ? [members[i], members[j]] : [members[j], members[i]];
        const key = `${a}\u0000${b}`;
        if (seen.has(key)) continue;
        seen.add(key);
        if (isSimilarName(a, b)) pairs.push([a, b]);
        if (pairs.length >= maxPairs) return pairs;
      }
    }
  }
  return pairs;
}

export function resolutionPrompt(
  pairs: ReadonlyArray<[string, string]>,
  entityType: (name: string) => string,
): string {
  const questions = pairs
    .map(([a, b], i) => `Question ${i + 1}: Are "${a}" and "${b}" the same ${entityType(a).toLowerCase()}?`)
    .join('\n');
  return `You decide whether two names in a knowledge graph refer to the same real-world thing. Consider
spelling variants, abbreviations, and names with or without titles or legal suffixes. Different people,
products, years or versions are not the same.

${questions}

Answer every question on its own line, exactly as "Question <number>: yes" or "Question <number>: no".`;
}

/** Reads "Question n: yes|no" lines; returns the 0-based indexes answered yes. */
export function parseResolutionAnswer(text: string, count: number): { yes: number[]; answered: number } {
  const yes = new Set<number>();
  const answered = new Set<number>();
  const re = /question\s*#?\s*(\d+)\s*\**\s*[:：.)-]*\s*\**\s*(yes|no|是|否)(?![\p{L}\p{N}])/giu;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const i = Number(m[1]) - 1;
    if (i < 0 || i >= count) continue;
    answered.add(i);
    if (/^(yes|是)$/i.test(m[2])) yes.add(i);
  }
  return { yes: [...yes].sort((a, b) => a - b), answered: answered.size };
}

/**
 * Merges `others` into `keep`: contributions are combined, edges re-pointed (an edge that would
 * connect `keep` to itself is dropped; parallel edges are combined), the other nodes removed.
 */
export function mergeEntities(graph: KbGraph, keep: string, others: readonly string[]): void {
  for (const other of others) {
    if (other === keep || !graph.hasNode(other)) continue;
    const into = graph.getNodeAttribute(keep, 'contributions');
    for (const [doc, c] of Object.entries(graph.getNodeAttribute(other, 'contributions'))) {
      const existing = into[doc];
      if (!existing) into[doc] = structuredClone(c);
      else {
        existing.descriptions = [...new Set([...existing.descriptions, ...c.descriptions])];
        existing.source_id = [...new Set([...existing.source_id, ...c.source_id])];
      }
    }
    for (const edge of graph.edges(other)) {
      const attrs = graph.getEdgeAttributes(edge);
      const neighbour = graph.opposite(other, edge);
      graph.dropEdge(edge);
      if (neighbour === keep) continue;
      const key = relationKey(keep, neighbour);
      if (!graph.hasEdge(key)) {
        const [src, tgt] = keep < neighbour ? [keep, neighbour] : [neighbour, keep];
        graph.addEdgeWithKey(key, src, tgt, {
          ...attrs,
          src_id: src,
          tgt_id: tgt,
          contributions: {},
          summary_of: '',
        });
      }
      const target = graph.getEdgeAttribute(key, 'contributions');
      for (const [doc, c] of Object.entries(attrs.contributions)) {
        const existing = target[doc];
        if (!existing) target[doc] = structuredClone(c);
        else {
          existing.descriptions = [...new Set([...existing.descriptions, ...c.descriptions])];
          existing.keywords = [...new Set([...existing.keywords, ...c.keywords])];
          existing.source_id = [...new Set([...existing.source_id, ...c.source_id])];
          existing.weight += c.weight;
        }
      }
      refreshEdge(graph, key);
    }
    graph.dropNode(other);
  }
  refreshNode(graph, keep);
}

export interface ResolveOptions {
  model: GraphChatModel;
  concurrency: number;
  /** Questions per model call (default 50). */
  batchSize?: number;
  maxPairs?: number;
  signal?: AbortSignal;
}

export interface ResolveResult {
  candidates: number;
  /** Each merge: the kept name and the names merged into it. */
  merges: Array<{ kept: string; merged: string[] }>;
  failedBatches: number;
  usage: TokenUsage;
}

export async function resolveEntities(graph: KbGraph, opts: ResolveOptions): Promise<ResolveResult> {
  const pairs = resolutionCandidates(graph, opts.maxPairs);
  const size = Math.max(1, opts.batchSize ?? 50);
  const batches: Array<Array<[string, string]>> = [];
  for (let i = 0; i < pairs.length; i += size) batches.push(pairs.slice(i, i + size));
  const usage = emptyUsage();
  let failedBatches = 0;
  const confirmed: Array<[string, string]> = [];
  const typeOf = (n: string) => graph.getNodeAttribute(n, 'entity_type');
  await mapConcurrent(
    batches,
    opts.concurrency,
    async (batch) => {
      try {
        const answer = await opts.model.complete(
          [{ role: 'user', content: resolutionPrompt(batch, typeOf) }],
          {
            signal: opts.signal,
            temperature: 0,
          },
        );
        addUsage(usage, answer.usage);
        const { yes, answered } = parseResolutionAnswer(answer.text, batch.length);
        if (answered === 0) failedBatches++;
        for (const i of yes) confirmed.push(batch[i]);
      } catch (err) {
        if (opts.signal?.aborted || isAbortError(err)) throw err;
        failedBatches++;
      }
    },
    opts.signal,
  );
  // Union-find over confirmed pairs, then merge each group into its best-attested member.
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.has(r) && parent.get(r) !== r) r = parent.get(r) as string;
    parent.set(x, r);
    return r;
  };
  for (const [a, b] of confirmed) {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(rb, ra);
  }
  const groups = new Map<string, string[]>();
  for (const name of parent.keys()) {
    const root = find(name);
    groups.set(root, [...(groups.get(root) ?? []), name]);
  }
  const merges: ResolveResult['merges'] = [];
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    // Keep the name with the most source chunks, then the longest, then alphabetical: deterministic.
    const ranked = [...new Set(members)].sort(
      (x, y) =>
        graph.getNodeAttribute(y, 'source_id').length - graph.getNodeAttribute(x, 'source_id').length ||
        y.length - x.length ||
        (x < y ? -1 : 1),
    );
    const [kept, ...merged] = ranked;
    mergeEntities(graph, kept, merged);
    merges.push({ kept, merged });
  }
  merges.sort((a, b) => (a.kept < b.kept ? -1 : 1));
  return { candidates: pairs.length, merges, failedBatches, usage };
}

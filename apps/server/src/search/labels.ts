/**
 * `labels` of retrieval_test (API.md §7, §19.4): the tag weights inferred for a question from the tag
 * sets its KBs use (`parser_config.tag_kb_ids`). The tag-set chunks matching the question vote with
 * their `tag_kwd`; a tag's weight is how much more often it occurs among the matches than in the whole
 * tag set: `0.1·(c+1)/(n+S) / ((C+1)/(N+S))` (c of n matching tags, C of N tags overall, S = 1000),
 * rounded, at least 1, the `topn_tags` strongest kept. Null when the KBs use no tag set.
 */
import { parseJson } from '../db/json.js';
import type { ChunkIndex } from '../chunk-index/chunk-index.js';
import { planSearch } from '../chunk-index/query.js';
import type { KnowledgebaseTable } from '../db/tables/knowledge.js';

const SMOOTHING = 1000;
const MATCH_LIMIT = 1000;

export async function questionLabels(
  index: ChunkIndex,
  kbs: ReadonlyArray<Pick<KnowledgebaseTable, 'parser_config'>>,
  question: string,
): Promise<Record<string, number> | null> {
  const configs = kbs.map((kb) => parseJson<Record<string, unknown>>(kb.parser_config, {}));
  const tagKbIds = [
    ...new Set(
      configs.flatMap((c) =>
        Array.isArray(c.tag_kb_ids) ? c.tag_kb_ids.filter((x): x is string => typeof x === 'string') : [],
      ),
    ),
  ];
  if (tagKbIds.length === 0) return null;
  const topn = configs.map((c) => c.topn_tags).find((n): n is number => typeof n === 'number' && n > 0) ?? 3;
  const all = await index.tagCounts(tagKbIds);
  const total = all.reduce((s, [, c]) => s + c, 0);
  if (total === 0) return null;
  const overall = new Map(all);
  const plan = await planSearch(index, question);
  if (!plan) return null;
  const found = await index.search({
    filter: { kbIds: tagKbIds, available: 1 },
    text: { ...plan.text, minimumShouldMatch: 0 },
    vector: null,
    textScoring: 'presence',
    offset: 0,
    limit: MATCH_LIMIT,
  });
  const votes = new Map<string, number>();
  for (const h of found.hits) for (const t of h.chunk.tag_kwd ?? []) votes.set(t, (votes.get(t) ?? 0) + 1);
  if (votes.size === 0) return null;
  const n = [...votes.values()].reduce((s, c) => s + c, 0);
  const weights = [...votes.entries()]
    .map(([tag, c]) => {
      const share = ((overall.get(tag) ?? 0) + 1) / (total + SMOOTHING);
      return [tag, (0.1 * (c + 1)) / (n + SMOOTHING) / Math.max(1e-6, share)] as const;
    })
    .sort((a, b) => b[1] - a[1])
    .slice(0, topn);
  return Object.fromEntries(weights.map(([tag, w]) => [tag.replace(/\./g, '_'), Math.max(1, Math.round(w))]));
}

import type { MetaDataFilter, MindMapNode, SearchConfig, SearchConfigInput } from '@lectern/shared';
import { draftOf, filterOf } from '../metadata';

/** Pure helpers of the search page. */

export interface TreeItem {
  key: string;
  title: string;
  children?: TreeItem[];
}

/**
 * The mind map as tree items: node ids are the labels (they may repeat), so keys are paths. A node
 * without an id or a map that is not a tree gives an empty list.
 */
export function mindMapTree(node: MindMapNode | null | undefined, path = '0'): TreeItem[] {
  if (!node || typeof node !== 'object' || typeof node.id !== 'string') return [];
  const children = Array.isArray(node.children)
    ? node.children.flatMap((child, i) => mindMapTree(child, `${path}-${i}`))
    : [];
  return [{ key: path, title: node.id, ...(children.length > 0 ? { children } : {}) }];
}

/** Related questions as shown: trimmed, non-empty, no duplicates, not the question itself. */
export function cleanRelated(questions: unknown, asked: string): string[] {
  if (!Array.isArray(questions)) return [];
  const seen = new Set<string>([asked.trim().toLowerCase()]);
  const out: string[] = [];
  for (const q of questions) {
    if (typeof q !== 'string') continue;
    const text = q.trim();
    if (!text || seen.has(text.toLowerCase())) continue;
    seen.add(text.toLowerCase());
    out.push(text);
  }
  return out;
}

/** Which panels a search app shows besides the ranked chunks (its `search_config` switches). */
export interface SearchPanels {
  summary: boolean;
  related: boolean;
  mindMap: boolean;
  /** The app has no knowledge base yet: nothing can be found. */
  empty: boolean;
}

export function panelsOf(config: Partial<SearchConfig> | null | undefined): SearchPanels {
  return {
    summary: config?.summary === true,
    related: config?.related_search === true,
    mindMap: config?.query_mindmap === true,
    empty: !config?.kb_ids || config.kb_ids.length === 0,
  };
}

/** The settings form's values (weights as percentages, like the chat assistant's editor). */
export interface SettingsForm {
  name: string;
  description: string;
  kb_ids: string[];
  chat_id: string;
  similarity_threshold: number;
  keyword_weight: number;
  top_k: number;
  rerank_id: string;
  summary: boolean;
  related_search: boolean;
  query_mindmap: boolean;
  keyword: boolean;
  use_kg: boolean;
  highlight: boolean;
  /** Web results in the AI summary; only sent as on while the app has a key. */
  web_search: boolean;
  /** The Tavily key as the server shows it (masked); sent back unchanged it keeps the stored key. */
  tavily_api_key: string;
  /** `meta_data_filter`: `{}` (off), manual conditions, or automatic. */
  meta_data_filter: MetaDataFilter;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export function formOf(app: {
  name: string;
  description: string | null;
  search_config: SearchConfig;
}): SettingsForm {
  const c = app.search_config;
  return {
    name: app.name,
    description: app.description ?? '',
    kb_ids: c.kb_ids,
    chat_id: c.chat_id,
    similarity_threshold: c.similarity_threshold,
    keyword_weight: round2(1 - c.vector_similarity_weight),
    top_k: c.top_k,
    rerank_id: c.rerank_id,
    summary: c.summary,
    related_search: c.related_search,
    query_mindmap: c.query_mindmap,
    keyword: c.keyword,
    use_kg: c.use_kg,
    highlight: c.highlight,
    web_search: c.web_search,
    tavily_api_key: c.tavily_api_key ?? '',
    meta_data_filter: filterOf(draftOf(c.meta_data_filter)),
  };
}

/** Web search needs a Tavily key: without one its switch is off and disabled. */
export function hasWebSearchKey(key: string | null | undefined): boolean {
  return (key ?? '').trim() !== '';
}

/**
 * The `search_config` to send for the form (keyword weight = 1 − vector weight, API.md §8). The key
 * goes back as shown (the mask keeps the stored key, `""` removes it); web search is on only with a key.
 */
export function configOf(form: SettingsForm): SearchConfigInput {
  const tavilyKey = (form.tavily_api_key ?? '').trim();
  return {
    kb_ids: form.kb_ids,
    chat_id: form.chat_id ?? '',
    similarity_threshold: form.similarity_threshold,
    vector_similarity_weight: round2(1 - form.keyword_weight),
    top_k: form.top_k,
    rerank_id: form.rerank_id ?? '',
    summary: form.summary,
    related_search: form.related_search,
    query_mindmap: form.query_mindmap,
    keyword: form.keyword,
    use_kg: form.use_kg,
    highlight: form.highlight,
    web_search: form.web_search === true && hasWebSearchKey(tavilyKey),
    tavily_api_key: tavilyKey,
    meta_data_filter: form.meta_data_filter ?? {},
  };
}

/** The public share page of a search app: the app id and the tenant's beta token. */
export function shareLink(origin: string, searchId: string, beta: string): string {
  const q = new URLSearchParams({ shared_id: searchId, auth: beta });
  return `${origin}/search/share?${q.toString()}`;
}

/**
 * The search page's model calls (API.md §9 `ask`, `mindmap`): an AI summary over chosen knowledge
 * bases (the chat pipeline with the search-app row of §19.12: threshold 0.2, vector weight 0.3,
 * top_k 1024, 12 chunks) and a mind map built from the retrieved chunks.
 */
import type { ChatModel } from '../models/ports.js';
import { normalizeMetaDataFilter } from '../search/metadata-conditions.js';
import { RETRIEVAL_DEFAULTS } from '../search/retrieval-defaults.js';
import type { ChatServices } from './services.js';
import type { DialogConfig, Knowledge } from './types.js';

export const ASK_SYSTEM = `You are an intelligent assistant. Summarize the content of the knowledge base below to answer the user's question, listing the relevant data in detail. When nothing in the knowledge base is relevant to the question, say so plainly and do not make an answer up. Answer in the language of the question.

Here is the knowledge base:
{knowledge}
The above is the knowledge base.`;

/**
 * The settings of a search app (API.md §15 `search_config`) the pipeline reads; absent = the
 * search-app row of §19.12 and the tenant's default chat model.
 */
export interface SearchSettings {
  similarity_threshold?: number;
  vector_similarity_weight?: number;
  top_k?: number;
  rerank_id?: string;
  use_kg?: boolean;
  chat_id?: string;
  llm_setting?: Record<string, unknown>;
  cross_languages?: string[];
  keyword?: boolean;
  /** The app's `meta_data_filter` (manual or auto), applied in the index before ranking. */
  meta_data_filter?: Record<string, unknown>;
  /** Web search (Tavily) beside the knowledge bases, as an assistant with this key does. */
  tavily_api_key?: string;
}

/** A search-app "assistant" over `kbIds`: the app's settings, else the §19.12 search-app defaults. */
export function askDialog(tenantId: string, kbIds: string[], settings: SearchSettings = {}): DialogConfig {
  const defaults = RETRIEVAL_DEFAULTS.search_app;
  return {
    id: '',
    tenant_id: tenantId,
    llm_id: settings.chat_id ?? '',
    llm_setting: { temperature: 0.1, ...(settings.llm_setting ?? {}) },
    prompt_config: {
      system: ASK_SYSTEM,
      prologue: '',
      parameters: [{ key: 'knowledge', optional: false }],
      empty_response: '',
      quote: true,
      keyword: settings.keyword === true,
      cross_languages: settings.cross_languages ?? [],
      use_kg: settings.use_kg === true,
      ...(settings.tavily_api_key ? { tavily_api_key: settings.tavily_api_key } : {}),
    },
    kb_ids: kbIds,
    top_n: defaults.size,
    top_k: settings.top_k ?? defaults.topK,
    similarity_threshold: settings.similarity_threshold ?? defaults.similarityThreshold,
    vector_similarity_weight: settings.vector_similarity_weight ?? defaults.vectorSimilarityWeight,
    rerank_id: settings.rerank_id ?? '',
    meta_data_filter: settings.meta_data_filter ?? {},
  };
}

export interface MindMapNode {
  id: string;
  children: MindMapNode[];
}

/**
 * A markdown outline (`#` headings, then `-`/`*`/`1.` bullets by indentation) → tree.
 * Several top-level entries hang under a `root` node.
 */
export function outlineToTree(markdown: string, rootName = 'root'): MindMapNode {
  const root: MindMapNode = { id: rootName, children: [] };
  const stack: Array<{ depth: number; node: MindMapNode }> = [{ depth: -1, node: root }];
  for (const raw of markdown.split('\n')) {
    if (!raw.trim() || /^\s*```/.test(raw)) continue;
    const heading = /^(#{1,6})\s+(.*)$/.exec(raw.trim());
    const bullet = /^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$/.exec(raw);
    let depth: number;
    let text: string;
    if (heading) {
      depth = heading[1].length - 1;
      text = heading[2];
    } else if (bullet) {
      depth = 6 + Math.floor(bullet[1].replace(/\t/g, '  ').length / 2);
      text = bullet[2];
    } else {
      continue;
    }
    text = text.replace(/\*\*|__|`/g, '').trim();
    if (!text) continue;
    while (stack.length > 1 && stack[stack.length - 1].depth >= depth) stack.pop();
    const node: MindMapNode = { id: text, children: [] };
    stack[stack.length - 1].node.children.push(node);
    stack.push({ depth, node });
  }
  return root.children.length === 1 ? root.children[0] : root;
}

export async function buildMindMap(
  model: ChatModel,
  question: string,
  knowledge: Knowledge,
  signal?: AbortSignal,
): Promise<MindMapNode> {
  if (knowledge.chunks.length === 0) return { id: question, children: [] };
  const text = knowledge.chunks
    .map((c) => c.content_with_weight)
    .join('\n\n')
    .slice(0, 24_000);
  const res = await model.complete(
    [
      {
        role: 'system',
        content:
          'You build a mind map of the given text as a markdown outline: one "# " title line naming the main topic, "## " lines for the main branches, and "- " bullets (indented by two spaces per level) for details. Keep each entry short. Use the language of the text. Output only the outline.',
      },
      { role: 'user', content: `Focus: ${question}\n\nText:\n${text}` },
    ],
    { temperature: 0.2, signal },
  );
  return outlineToTree(res.text.replace(/<think>[\s\S]*?<\/think>/g, ''), question);
}

export async function mindMapFor(
  svc: ChatServices,
  tenantId: string,
  question: string,
  kbIds: string[],
  settings: SearchSettings = {},
  docIds?: string[],
): Promise<MindMapNode> {
  const dialog = askDialog(tenantId, kbIds, settings);
  const { model } = await svc.chatModel(tenantId, dialog.llm_id);
  const knowledge = await svc.retrieve({
    question,
    tenantId,
    kbIds,
    docIds,
    topN: dialog.top_n,
    topK: dialog.top_k,
    similarityThreshold: dialog.similarity_threshold,
    vectorSimilarityWeight: dialog.vector_similarity_weight,
    rerankId: dialog.rerank_id || undefined,
    useKg: dialog.prompt_config.use_kg === true,
    metaFilters: [normalizeMetaDataFilter(dialog.meta_data_filter)],
    metaLlmId: dialog.llm_id,
  });
  return buildMindMap(model, question, knowledge);
}

/** Catalogue entries of the model-backed components and Retrieval (AGENTS.md §6.1–6.3, §10.3, §8). */
import { z } from 'zod';
import { defineEntry } from './define.js';
import { bool, checkLlm, int, list, llmParams, num, obj, str, strList } from './params.js';
import type { CatalogueEntry } from './types.js';

type P = Record<string, unknown>;
const llmCheck = (p: P) => checkLlm(p as Parameters<typeof checkLlm>[0]);

/** The editor's LLM base values for a new Agent/Categorize (§9.3). */
export const EDITOR_LLM_BASE = {
  llm_id: '',
  temperature: 0.1,
  top_p: 0.3,
  frequency_penalty: 0.7,
  presence_penalty: 0.4,
  max_tokens: 256,
  temperatureEnabled: false,
  topPEnabled: false,
  frequencyPenaltyEnabled: false,
  presencePenaltyEnabled: false,
  maxTokensEnabled: false,
};

export const DEFAULT_AGENT_SYS_PROMPT = `<role>
  You are a helpful assistant, an AI assistant specialized in problem-solving for the user.
  If a specific domain is provided, adapt your expertise to that domain; otherwise, operate as a generalist.
</role>
<instructions>
  1. Understand the user’s request.
  2. Decompose it into logical subtasks.
  3. Execute each subtask step by step, reasoning transparently.
  4. Validate accuracy and consistency.
  5. Summarize the final result clearly.
</instructions>`;

export const llmEntry = defineEntry({
  name: 'LLM',
  nodeType: 'agentNode',
  shape: llmParams,
  outputs: { content: { type: 'string' }, structured: { type: 'object' } },
  check: (p) => [...llmCheck(p), ...((p.prompts as unknown[]).length ? [] : ['prompts must not be empty'])],
  primaryOutput: 'content',
  inputElementParams: ['sys_prompt', 'prompts'],
});

const toolEntrySchema = z.looseObject({
  component_name: z.string(),
  name: z.string().optional(),
  id: z.string().optional(),
  params: obj(),
});

export const agentEntry = defineEntry({
  name: 'Agent',
  nodeType: 'agentNode',
  group: 'foundation',
  shape: {
    ...llmParams,
    tools: list(toolEntrySchema),
    mcp: list(z.looseObject({ mcp_id: z.string(), tools: obj() })),
    max_rounds: int(5),
    user_prompt: str(''),
  },
  editorInitial: {
    ...EDITOR_LLM_BASE,
    sys_prompt: DEFAULT_AGENT_SYS_PROMPT,
    prompts: [{ role: 'user', content: '{sys.query}' }],
    user_prompt: '',
    message_history_window_size: 12,
    max_retries: 3,
    delay_after_error: 1,
    visual_files_var: '',
    max_rounds: 1,
    exception_method: '',
    exception_goto: [],
    exception_default_value: '',
    tools: [],
    mcp: [],
    cite: true,
    showStructuredOutput: false,
    outputs: { content: { type: 'string', value: '' } },
  },
  outputs: {
    content: { type: 'string' },
    structured: { type: 'object' },
    use_tools: { type: 'Array<object>' },
  },
  check: (p) => {
    const errs = llmCheck(p);
    if ((p.max_rounds as number) < 0) errs.push('max_rounds must be ≥ 0');
    return errs;
  },
  timeoutSeconds: 1200,
  primaryOutput: 'content',
  inputElementParams: ['sys_prompt', 'prompts'],
});

const categorySchema = z.looseObject({
  description: str(''),
  examples: z.preprocess(
    (v) => {
      if (v === null || v === undefined) return [];
      if (typeof v === 'string') return v.split('\n').filter((x) => x.trim());
      return v;
    },
    z.array(
      z.preprocess(
        (x) => (typeof x === 'object' && x ? ((x as { value?: unknown }).value ?? '') : x),
        z.string(),
      ),
    ),
  ),
  to: strList(),
  index: z.number().optional(),
});

export const categorizeEntry = defineEntry({
  name: 'Categorize',
  nodeType: 'categorizeNode',
  group: 'flow',
  shape: {
    ...llmParams,
    category_description: z.preprocess((v) => v ?? {}, z.record(z.string(), categorySchema)),
    query: str('sys.query'),
    message_history_window_size: int(1),
  },
  editorInitial: {
    ...EDITOR_LLM_BASE,
    query: 'sys.query',
    parameter: 'Precise',
    message_history_window_size: 1,
    items: [],
    outputs: { category_name: { type: 'string' } },
  },
  outputs: { category_name: { type: 'string' } },
  check: (p) => {
    const errs: string[] = [];
    if (!p.llm_id) errs.push('llm_id (the model) is required');
    if ((p.message_history_window_size as number) <= 0) errs.push('message_history_window_size must be > 0');
    const cats = p.category_description as Record<string, { to: string[] }>;
    if (Object.keys(cats).length === 0) errs.push('[Categorize] Category examples must not be empty');
    for (const [name, c] of Object.entries(cats)) {
      if (!name.trim()) errs.push('[Categorize] Category name can not be empty');
      if (!c.to.length) errs.push(`[Categorize] 'To' of category ${name} can not be empty`);
    }
    return errs;
  },
  primaryOutput: 'category_name',
  inputElementParams: ['query'],
});

export const RETRIEVAL_DESCRIPTION =
  'This tool can be utilized for relevant content searching in the datasets.';

export const retrievalEntry = defineEntry({
  name: 'Retrieval',
  nodeType: 'retrievalNode',
  group: 'foundation',
  shape: {
    query: str(''),
    function_name: str('search_my_dateset'),
    similarity_threshold: num(0.2),
    keywords_similarity_weight: num(0.5),
    top_n: num(8),
    top_k: int(1024),
    kb_ids: strList(),
    memory_ids: strList(),
    kb_vars: list(z.unknown()),
    rerank_id: str(''),
    empty_response: str(''),
    use_kg: bool(false),
    cross_languages: strList(),
    toc_enhance: bool(false),
    meta_data_filter: obj(),
    retrieval_from: str('dataset'),
  },
  editorInitial: {
    query: '{sys.query}',
    top_n: 8,
    top_k: 1024,
    similarity_threshold: 0.2,
    keywords_similarity_weight: 0.5,
    kb_ids: [],
    use_kg: false,
    retrieval_from: 'dataset',
    empty_response: '',
    description: '',
    outputs: {
      formalized_content: { type: 'string', value: '' },
      json: { type: 'Array<Object>', value: [] },
    },
  },
  outputs: { formalized_content: { type: 'string' }, json: { type: 'Array<Object>' } },
  check: (p) => {
    const errs: string[] = [];
    const t = p.similarity_threshold as number;
    const w = p.keywords_similarity_weight as number;
    if (t < 0 || t > 1) errs.push('similarity_threshold must be between 0 and 1');
    if (w < 0 || w > 1) errs.push('keywords_similarity_weight must be between 0 and 1');
    if ((p.top_n as number) <= 0) errs.push('top_n must be > 0');
    return errs;
  },
  timeoutSeconds: 600,
  primaryOutput: 'formalized_content',
});

export const rewriteQuestionEntry = defineEntry({
  name: 'RewriteQuestion',
  nodeType: 'rewriteNode',
  shape: { ...llmParams, message_history_window_size: int(6), language: str('') },
  editorInitial: { ...EDITOR_LLM_BASE, message_history_window_size: 6, language: '' },
  outputs: { content: { type: 'string' } },
  check: (p) => (p.llm_id ? [] : ['llm_id (the model) is required']),
  primaryOutput: 'content',
  legacy: true,
});

export const keywordExtractEntry = defineEntry({
  name: 'KeywordExtract',
  nodeType: 'ragNode',
  shape: { ...llmParams, top_n: int(3), query: str('sys.query') },
  editorInitial: { ...EDITOR_LLM_BASE, top_n: 3, query: 'sys.query' },
  outputs: { content: { type: 'string' } },
  check: (p) => (p.llm_id ? [] : ['llm_id (the model) is required']),
  primaryOutput: 'content',
  legacy: true,
});

export const MODEL_ENTRIES: CatalogueEntry[] = [
  llmEntry,
  agentEntry,
  categorizeEntry,
  retrievalEntry,
  rewriteQuestionEntry,
  keywordExtractEntry,
];

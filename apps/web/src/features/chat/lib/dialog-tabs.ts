import { LLM_PARAMETERS } from './presets';

/** The assistant dialog's tabs, and which of them holds what, so an error is shown where it is. */
export type TabKey = 'assistant' | 'prompt' | 'model';

const TABS: readonly TabKey[] = ['assistant', 'prompt', 'model'];

/** Which tab a field lives on. */
const FIELD_TAB: Record<string, TabKey> = {
  system: 'prompt',
  parameters: 'prompt',
  similarity_threshold: 'prompt',
  keyword_weight: 'prompt',
  top_n: 'prompt',
  top_k: 'prompt',
  rerank_id: 'prompt',
  llm_id: 'model',
  preset: 'model',
  ...Object.fromEntries(
    LLM_PARAMETERS.flatMap((p) => [
      [p, 'model'],
      [`${p}_enabled`, 'model'],
    ]),
  ),
};

export function tabOfField(name: unknown): TabKey {
  return FIELD_TAB[String(name)] ?? 'assistant';
}

/** How many invalid fields each tab has (antd's `getFieldsError()` / `errorFields`). */
export function errorsPerTab(
  fields: ReadonlyArray<{ name: ReadonlyArray<string | number>; errors: readonly string[] }>,
): Record<TabKey, number> {
  const counts = Object.fromEntries(TABS.map((k) => [k, 0])) as Record<TabKey, number>;
  for (const f of fields) if (f.errors.length > 0) counts[tabOfField(f.name[0])] += 1;
  return counts;
}

/**
 * The tab a refusal of `dialog/set` is about (API.md §8 messages): the system prompt and its
 * parameters are on the prompt tab, the chat model on the model tab, names and datasets on the first.
 */
export function serverErrorTab(message: string): TabKey {
  if (/\{knowledge\}|system prompt|Parameter '/i.test(message)) return 'prompt';
  if (/\bmodel\b/i.test(message) && !/embedding/i.test(message)) return 'model';
  return 'assistant';
}

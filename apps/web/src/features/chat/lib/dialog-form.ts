import type { Dialog, DialogSetBody, LlmSetting, MetaDataFilter, PromptParameter } from '@lectern/shared';
import { draftOf, filterOf } from '../../metadata';
import {
  DEFAULT_MAX_TOKENS,
  DEFAULT_PRESET,
  DEFAULT_SIMILARITY_THRESHOLD,
  DEFAULT_TOP_K,
  DEFAULT_TOP_N,
  DEFAULT_VECTOR_WEIGHT,
  keywordWeightOf,
  LLM_PARAMETERS,
  PRESET_VALUES,
  presetOf,
  vectorWeightOf,
  type FreedomPreset,
  type LlmParameter,
} from './presets';
import { cleanParameters, KNOWLEDGE_KEY } from './prompt-rules';

/** The assistant configuration dialog's values (three tabs) and their mapping to `dialog/set`. */
export interface DialogFormValues {
  // Assistant setting
  name: string;
  icon: string;
  description: string;
  language: string;
  empty_response: string;
  prologue: string;
  quote: boolean;
  keyword: boolean;
  tts: boolean;
  tavily_api_key: string;
  kb_ids: string[];
  refine_multiturn: boolean;
  reasoning: boolean;
  use_kg: boolean;
  /** Retrieval also follows the documents' tables of contents (KBs with `toc_extraction`). */
  toc_enhance: boolean;
  self_rag: boolean;
  /** `meta_data_filter`: `{}` (off), manual conditions, or automatic. */
  meta_data_filter: MetaDataFilter;
  // Prompt engine
  system: string;
  parameters: PromptParameter[];
  similarity_threshold: number;
  keyword_weight: number;
  top_n: number;
  top_k: number;
  rerank_id: string;
  // Model setting
  llm_id: string;
  preset: FreedomPreset | 'custom';
  temperature: number;
  temperature_enabled: boolean;
  top_p: number;
  top_p_enabled: boolean;
  presence_penalty: number;
  presence_penalty_enabled: boolean;
  frequency_penalty: number;
  frequency_penalty_enabled: boolean;
  max_tokens: number;
  max_tokens_enabled: boolean;
}

/** Texts a new assistant starts with, in the interface language. */
export interface DefaultTexts {
  system: string;
  prologue: string;
  emptyResponse: string;
  language: string;
}

export const enabledKey = (p: LlmParameter) => `${p}_enabled` as const;

/** The model-setting fields of a stored `llm_setting`: a missing key is a switched-off parameter. */
function modelFields(setting: LlmSetting, fallback: Required<LlmSetting>) {
  const out: Record<string, number | boolean> = {};
  for (const p of LLM_PARAMETERS) {
    const value = setting[p];
    out[p] = typeof value === 'number' ? value : fallback[p];
    out[enabledKey(p)] = typeof value === 'number';
  }
  return out as Pick<DialogFormValues, LlmParameter | `${LlmParameter}_enabled`>;
}

export function newDialogValues(texts: DefaultTexts, defaultLlmId: string): DialogFormValues {
  const start: Required<LlmSetting> = { ...PRESET_VALUES[DEFAULT_PRESET], max_tokens: DEFAULT_MAX_TOKENS };
  return {
    name: '',
    icon: '',
    description: '',
    language: texts.language,
    empty_response: texts.emptyResponse,
    prologue: texts.prologue,
    quote: true,
    keyword: false,
    tts: false,
    tavily_api_key: '',
    kb_ids: [],
    refine_multiturn: false,
    reasoning: false,
    use_kg: false,
    toc_enhance: false,
    self_rag: false,
    meta_data_filter: {},
    system: texts.system,
    parameters: [{ key: KNOWLEDGE_KEY, optional: false }],
    similarity_threshold: DEFAULT_SIMILARITY_THRESHOLD,
    keyword_weight: keywordWeightOf(DEFAULT_VECTOR_WEIGHT),
    top_n: DEFAULT_TOP_N,
    top_k: DEFAULT_TOP_K,
    rerank_id: '',
    llm_id: defaultLlmId,
    preset: DEFAULT_PRESET,
    ...modelFields(start, start),
  };
}

export function dialogToValues(dialog: Dialog): DialogFormValues {
  const pc = dialog.prompt_config;
  const fallback: Required<LlmSetting> = { ...PRESET_VALUES[DEFAULT_PRESET], max_tokens: DEFAULT_MAX_TOKENS };
  return {
    name: dialog.name,
    icon: dialog.icon ?? '',
    description: dialog.description ?? '',
    language: dialog.language,
    empty_response: pc.empty_response ?? '',
    prologue: pc.prologue ?? '',
    quote: pc.quote !== false,
    keyword: pc.keyword === true,
    tts: pc.tts === true,
    tavily_api_key: pc.tavily_api_key ?? '',
    // KBs deleted under the assistant stay in the list (shown as deleted) until the user drops them.
    kb_ids: [...dialog.kb_ids, ...(dialog.missing_kb_ids ?? [])],
    refine_multiturn: pc.refine_multiturn === true,
    reasoning: pc.reasoning === true,
    use_kg: pc.use_kg === true,
    toc_enhance: pc.toc_enhance === true,
    self_rag: pc.self_rag === true,
    meta_data_filter: filterOf(draftOf(dialog.meta_data_filter)),
    system: pc.system ?? '',
    parameters: pc.parameters ?? [],
    similarity_threshold: dialog.similarity_threshold,
    keyword_weight: keywordWeightOf(dialog.vector_similarity_weight),
    top_n: dialog.top_n,
    top_k: dialog.top_k,
    rerank_id: dialog.rerank_id ?? '',
    llm_id: dialog.llm_id,
    preset: presetOf(dialog.llm_setting),
    ...modelFields(dialog.llm_setting, fallback),
  };
}

/** The switched-on model parameters only: a switched-off one is left to the provider's default. */
export function llmSettingOf(
  values: Pick<DialogFormValues, LlmParameter | `${LlmParameter}_enabled`>,
): LlmSetting {
  const setting: LlmSetting = {};
  for (const p of LLM_PARAMETERS) if (values[enabledKey(p)]) setting[p] = values[p];
  return setting;
}

/**
 * The `dialog/set` body. The empty response is cleared when no knowledge base is selected (SPEC §5);
 * prompt-config keys the dialog does not edit (cross languages…) are kept from `base`.
 */
export function valuesToSetBody(values: DialogFormValues, base?: Dialog): DialogSetBody {
  const kbIds = values.kb_ids ?? [];
  return {
    ...(base ? { dialog_id: base.id } : {}),
    name: values.name.trim(),
    description: values.description ?? '',
    icon: values.icon ?? '',
    language: values.language,
    kb_ids: kbIds,
    llm_id: values.llm_id,
    llm_setting: llmSettingOf(values),
    prompt_config: {
      ...(base?.prompt_config ?? {}),
      system: values.system,
      prologue: values.prologue ?? '',
      parameters: cleanParameters(values.parameters ?? []),
      empty_response: kbIds.length === 0 ? '' : (values.empty_response ?? ''),
      quote: values.quote,
      keyword: values.keyword,
      refine_multiturn: values.refine_multiturn,
      reasoning: values.reasoning,
      tavily_api_key: (values.tavily_api_key ?? '').trim(),
      use_kg: values.use_kg,
      toc_enhance: values.toc_enhance === true,
      tts: values.tts,
      self_rag: values.self_rag,
    },
    similarity_threshold: values.similarity_threshold,
    vector_similarity_weight: vectorWeightOf(values.keyword_weight),
    top_n: values.top_n,
    top_k: values.top_k,
    rerank_id: values.rerank_id ?? '',
    meta_data_filter: values.meta_data_filter ?? {},
  };
}

/** Values after a preset is chosen: its five numbers, every parameter switched on. */
export function applyPreset(preset: FreedomPreset): Partial<DialogFormValues> {
  const out: Record<string, number | boolean> = {};
  for (const p of LLM_PARAMETERS) {
    out[p] = PRESET_VALUES[preset][p];
    out[enabledKey(p)] = true;
  }
  return out as Partial<DialogFormValues>;
}

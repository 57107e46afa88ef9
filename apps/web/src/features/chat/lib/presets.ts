import type { LlmSetting } from '@lectern/shared';

/**
 * Model-setting presets of API.md §8 (SPEC §9: improvise, precise (default), balance) and the
 * retrieval weights: the UI shows keyword weight = 1 − vector_similarity_weight, the two sum to 1.0.
 */

export const FREEDOM_PRESETS = ['improvise', 'precise', 'balance'] as const;
export type FreedomPreset = (typeof FREEDOM_PRESETS)[number];
export const DEFAULT_PRESET: FreedomPreset = 'precise';

export type LlmParameter = 'temperature' | 'top_p' | 'frequency_penalty' | 'presence_penalty' | 'max_tokens';
export const LLM_PARAMETERS: readonly LlmParameter[] = [
  'temperature',
  'top_p',
  'presence_penalty',
  'frequency_penalty',
  'max_tokens',
];

export const PRESET_VALUES: Record<FreedomPreset, Required<LlmSetting>> = {
  improvise: {
    temperature: 0.8,
    top_p: 0.9,
    frequency_penalty: 0.1,
    presence_penalty: 0.1,
    max_tokens: 4096,
  },
  precise: { temperature: 0.2, top_p: 0.75, frequency_penalty: 0.5, presence_penalty: 0.5, max_tokens: 4096 },
  balance: { temperature: 0.5, top_p: 0.85, frequency_penalty: 0.3, presence_penalty: 0.2, max_tokens: 4096 },
};

/** SPEC §9: max tokens default 512 (a new assistant starts from "precise" with 512 max tokens). */
export const DEFAULT_MAX_TOKENS = 512;
/** SPEC §9: similarity threshold default 0.2. */
export const DEFAULT_SIMILARITY_THRESHOLD = 0.2;
export const DEFAULT_VECTOR_WEIGHT = 0.3;
export const DEFAULT_TOP_N = 6;
export const DEFAULT_TOP_K = 1024;

/** The preset whose sampling values a setting has (max tokens aside), or `custom`. */
export function presetOf(setting: LlmSetting): FreedomPreset | 'custom' {
  const keys = ['temperature', 'top_p', 'frequency_penalty', 'presence_penalty'] as const;
  for (const name of FREEDOM_PRESETS) {
    if (keys.every((k) => setting[k] === PRESET_VALUES[name][k])) return name;
  }
  return 'custom';
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Keyword similarity weight shown for a stored vector weight. */
export function keywordWeightOf(vectorWeight: number): number {
  return round2(1 - vectorWeight);
}

/** Vector weight stored for a keyword weight chosen in the UI (so that the two sum to exactly 1.0). */
export function vectorWeightOf(keywordWeight: number): number {
  return round2(1 - keywordWeight);
}

/**
 * zod building blocks for component params. Saved DSLs are lenient (numbers stored as strings, `null`
 * where a list is expected, editor-only keys), so these coerce and default rather than reject.
 */
import { z } from 'zod';

const blankToUndefined = (v: unknown) => (v === null || v === '' ? undefined : v);

/** A number that may be stored as a string ("0.1"); null/"" take the default. */
export const num = (d: number) =>
  z.preprocess((v) => {
    const b = blankToUndefined(v);
    return typeof b === 'string' && b.trim() !== '' && !Number.isNaN(Number(b)) ? Number(b) : b;
  }, z.number().default(d));

export const int = (d: number) =>
  z.preprocess((v) => {
    const b = blankToUndefined(v);
    return typeof b === 'string' && /^\s*-?\d+\s*$/.test(b) ? Number(b) : b;
  }, z.number().int().default(d));

export const bool = (d: boolean) =>
  z.preprocess((v) => {
    if (v === null) return undefined;
    if (v === 'true' || v === 1) return true;
    if (v === 'false' || v === 0) return false;
    return v;
  }, z.boolean().default(d));

export const str = (d = '') => z.preprocess((v) => (v === null ? undefined : v), z.string().default(d));

/** A list that may be stored as null, or as one string (editor forms store "" for "none"). */
export const strList = () =>
  z.preprocess((v) => {
    if (v === null || v === undefined || v === '') return [];
    if (typeof v === 'string') return [v];
    return v;
  }, z.array(z.string()));

export const list = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === null || v === undefined ? [] : v), z.array(item));

export const obj = () =>
  z.preprocess((v) => (v === null || v === undefined ? {} : v), z.record(z.string(), z.unknown()));

/** Declared outputs `{<name>: {type?, value?, ref?}}`; `{}` entries are allowed (the editor writes them). */
export const outputsDecl = () =>
  z.preprocess(
    (v) => (v === null || v === undefined || Array.isArray(v) ? {} : v),
    z.record(
      z.string(),
      z.preprocess((e) => (e === null || typeof e !== 'object' ? {} : e), z.looseObject({})),
    ),
  );

/** Params every component has (AGENTS.md §6.0), plus Lectern's per-component `loop_limit`. */
export const commonParams = {
  message_history_window_size: int(13),
  outputs: outputsDecl(),
  description: str(''),
  max_retries: int(0),
  delay_after_error: num(2),
  exception_method: z.preprocess((v) => (v === '' ? null : v), z.string().nullish().default(null)),
  exception_default_value: z.unknown().optional(),
  exception_goto: strList(),
  debug_inputs: obj(),
  custom_header: obj(),
  /** Lectern: how often this component may run in one run (per round inside an Iteration/Loop). */
  loop_limit: z.preprocess(blankToUndefined, z.number().int().positive().optional()),
};

export const promptSchema = z.looseObject({ role: str('user'), content: str('') });

/** `prompts`: a list of `{role, content}`; a plain string is wrapped as one user prompt (§6.1). */
export const prompts = () =>
  z.preprocess(
    (v) => {
      if (v === null || v === undefined) return undefined;
      if (typeof v === 'string') return [{ role: 'user', content: v }];
      return v;
    },
    z.array(promptSchema).default([{ role: 'user', content: '{sys.query}' }]),
  );

/** LLM generation params shared by LLM, Agent, Categorize and the other model-backed components. */
export const llmParams = {
  llm_id: str(''),
  sys_prompt: str(''),
  prompts: prompts(),
  max_tokens: num(0),
  temperature: num(0),
  top_p: num(0),
  presence_penalty: num(0),
  frequency_penalty: num(0),
  maxTokensEnabled: bool(false),
  temperatureEnabled: bool(false),
  topPEnabled: bool(false),
  presencePenaltyEnabled: bool(false),
  frequencyPenaltyEnabled: bool(false),
  output_structure: z.unknown().optional(),
  cite: bool(true),
  visual_files_var: z.string().nullish(),
};

/** Range checks of LLMParam.check() (§6.1); they fail the canvas load. */
export function checkLlm(p: {
  llm_id: string;
  temperature: number;
  top_p: number;
  presence_penalty: number;
  frequency_penalty: number;
  max_tokens: number;
}): string[] {
  const errs: string[] = [];
  if (!p.llm_id) errs.push('llm_id (the model) is required');
  for (const k of ['temperature', 'top_p', 'presence_penalty', 'frequency_penalty'] as const) {
    if (p[k] < 0 || p[k] > 1) errs.push(`${k} must be between 0 and 1`);
  }
  if (p.max_tokens < 0) errs.push('max_tokens must be ≥ 0');
  return errs;
}

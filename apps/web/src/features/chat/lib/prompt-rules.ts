import type { PromptParameter } from '@lectern/shared';

/**
 * System-prompt rules of SPEC §5 / API.md §8: variables appear in the prompt in curly braces
 * (`{name}`), `{knowledge}` is the reserved slot for the retrieved chunks, every required variable
 * must be used, and `{knowledge}` only makes sense with a knowledge source.
 */

export const KNOWLEDGE_KEY = 'knowledge';
export const KNOWLEDGE_SLOT = `{${KNOWLEDGE_KEY}}`;

/** The `{name}` variables a prompt uses, in order, each once. */
export function promptVariables(system: string): string[] {
  const keys: string[] = [];
  for (const m of system.matchAll(/\{([^{}\s]+)\}/g)) if (!keys.includes(m[1])) keys.push(m[1]);
  return keys;
}

export type VariableProblem =
  | { kind: 'empty'; row: number }
  | { kind: 'invalid'; row: number; key: string }
  | { kind: 'duplicate'; row: number; key: string }
  | { kind: 'notInPrompt'; row: number; key: string };

/** A variable key: no spaces and no braces (it is written as `{key}` in the prompt). */
export function isValidKey(key: string): boolean {
  return /^[^\s{}]+$/.test(key);
}

/** What is wrong with the variable list for this prompt (empty when nothing is). */
export function variableProblems(system: string, parameters: readonly PromptParameter[]): VariableProblem[] {
  const problems: VariableProblem[] = [];
  const seen = new Set<string>();
  parameters.forEach((p, row) => {
    const key = (p.key ?? '').trim();
    if (key === '') problems.push({ kind: 'empty', row });
    else if (!isValidKey(key)) problems.push({ kind: 'invalid', row, key });
    else if (seen.has(key)) problems.push({ kind: 'duplicate', row, key });
    else if (!p.optional && !system.includes(`{${key}}`)) problems.push({ kind: 'notInPrompt', row, key });
    seen.add(key);
  });
  return problems;
}

/**
 * `{knowledge}`: with a knowledge source (knowledge bases or a web-search key) the prompt must hold
 * the slot, otherwise the retrieved chunks never reach the model; without one it must not.
 */
export function knowledgeProblem(system: string, hasSource: boolean): 'missing' | 'unused' | null {
  const has = system.includes(KNOWLEDGE_SLOT);
  if (hasSource && !has) return 'missing';
  if (!hasSource && has) return 'unused';
  return null;
}

/** Parameters as sent: keys trimmed, empty rows dropped. */
export function cleanParameters(parameters: readonly PromptParameter[]): PromptParameter[] {
  return parameters
    .map((p) => ({ key: (p.key ?? '').trim(), optional: p.optional === true }))
    .filter((p) => p.key !== '');
}

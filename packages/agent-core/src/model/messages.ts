/**
 * The message list of an LLM/Agent call (§6.1 "Messages, in order"): the rendered system prompt
 * (+ citation guidelines when citing), the last 2×window history entries before this turn, then the
 * rendered prompts — a prompt with the same role as the one before is appended, not dropped (Quirk
 * fixed). Fitted to 97 % of the model's context by dropping the oldest history first.
 */
import type { ComponentContext } from '../components/types.js';
import type { ChatMessage } from '../ports.js';
import { estimateTokens } from '../runtime/references.js';
import { BUILTIN_PROMPTS, extractOverrides, type PromptOverrides } from './prompts.js';

export interface BuiltMessages {
  messages: ChatMessage[];
  overrides: PromptOverrides;
}

export interface BuildOptions {
  /** add citation guidelines to the system prompt */
  cite: boolean;
  /** extra system text (structured-output instructions) */
  systemExtra?: string;
  /** images for the last user message (data URLs) */
  images?: string[];
  /** replace the rendered prompts with these (sub-agent call, debug) */
  userPrompt?: string;
  /** include conversation history (sub-agents do not) */
  withHistory?: boolean;
  contextTokens?: number;
}

export async function buildMessages(ctx: ComponentContext, o: BuildOptions): Promise<BuiltMessages> {
  const p = ctx.params as {
    sys_prompt: string;
    prompts: { role: string; content: string }[];
    message_history_window_size: number;
  };
  const { prompt, overrides } = extractOverrides(p.sys_prompt);
  let system = await ctx.render(prompt);
  if (o.cite) system += `\n\n${overrides.citation_guidelines ?? BUILTIN_PROMPTS.citation_guidelines}`;
  if (o.systemExtra) system += `\n\n${o.systemExtra}`;

  const turns = Math.max(0, p.message_history_window_size);
  // slice(-0) would keep everything: a window of 0 means no history.
  const history: ChatMessage[] =
    o.withHistory === false || turns === 0 ? [] : ctx.history().slice(-2 * turns);
  const prompts: ChatMessage[] = [];
  if (o.userPrompt !== undefined) prompts.push({ role: 'user', content: o.userPrompt });
  else
    for (const pr of p.prompts) {
      const content = await ctx.render(pr.content);
      prompts.push(pr.role === 'assistant' ? { role: 'assistant', content } : { role: 'user', content });
    }
  if (o.images?.length) {
    const lastUser = [...prompts].reverse().find((m) => m.role === 'user');
    if (lastUser && lastUser.role === 'user') lastUser.images = o.images;
    else prompts.push({ role: 'user', content: '', images: o.images });
  }
  const head: ChatMessage[] = system.trim() ? [{ role: 'system', content: system.trim() }] : [];
  return { messages: fit([...head], history, prompts, o.contextTokens), overrides };
}

function fit(
  head: ChatMessage[],
  history: ChatMessage[],
  tail: ChatMessage[],
  contextTokens?: number,
): ChatMessage[] {
  if (!contextTokens) return [...head, ...history, ...tail];
  const budget = contextTokens * 0.97;
  const size = (ms: ChatMessage[]) => ms.reduce((n, m) => n + estimateTokens(m.content) + 4, 0);
  const h = [...history];
  while (h.length && size([...head, ...h, ...tail]) > budget) h.shift();
  return [...head, ...h, ...tail];
}

/** Data URLs of images named by `visual_files_var` (§6.1 "Images"). */
export async function visualFiles(ctx: ComponentContext): Promise<string[]> {
  const ref = ctx.params.visual_files_var;
  if (typeof ref !== 'string' || !ref.trim()) return [];
  let v: unknown;
  try {
    v = await ctx.resolve(ref);
  } catch {
    return [];
  }
  const list = Array.isArray(v) ? v : [v];
  return list.filter((x): x is string => typeof x === 'string' && x.startsWith('data:image/'));
}

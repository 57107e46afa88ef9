/**
 * Built-in agent prompts (`GET /v1/canvas/prompts`) and the override tags a `sys_prompt` may carry
 * (§6.1 "Prompt override tags").
 */

export const BUILTIN_PROMPTS = {
  task_analysis: `Analyse the user's request before acting. State the goal in one sentence, list what information is
missing, and decide which of the available tools (if any) can provide it. Prefer the fewest tool calls that
fully answer the request.`,
  plan_generation: `Plan the next step. Call a tool only when its result is needed to answer; call independent tools
together in one step. When you have enough information, answer directly without calling a tool.`,
  reflection: `Check the results gathered so far against the goal. If something is missing or contradictory, decide
which tool call would resolve it; otherwise write the final answer.`,
  citation_guidelines: `# Citations
- Cite the knowledge-base chunks you rely on with their ID in the format [ID:n], placed right after the sentence
  that uses them, e.g. "Revenue grew 12% [ID:3]."
- Use at most 4 citations per sentence; cite only IDs that appear in the retrieved content.
- Do not invent IDs and do not cite anything for statements that do not come from the retrieved content.`,
  context_summary: `Summarise the conversation and tool results so far, keeping every fact needed for the final answer.`,
  context_ranking: `Rank the gathered pieces of context by how much they help answer the request.`,
};

export type PromptOverrides = Partial<Record<keyof typeof BUILTIN_PROMPTS, string>>;

const TAGS: [RegExp, keyof typeof BUILTIN_PROMPTS][] = (
  [
    ['TASK_ANALYSIS', 'task_analysis'],
    ['PLAN_GENERATION', 'plan_generation'],
    ['REFLECTION', 'reflection'],
    ['CONTEXT_SUMMARY', 'context_summary'],
    ['CONTEXT_RANKING', 'context_ranking'],
    ['CITATION_GUIDELINES', 'citation_guidelines'],
  ] as const
).map(([tag, key]) => [new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'i'), key]);

/** Cut the override blocks out of a system prompt (case-insensitive) and return them by key. */
export function extractOverrides(sysPrompt: string): { prompt: string; overrides: PromptOverrides } {
  const overrides: PromptOverrides = {};
  let prompt = sysPrompt;
  if (!prompt.includes('<')) return { prompt: prompt.trim(), overrides };
  for (const [re, key] of TAGS) {
    const m = re.exec(prompt);
    if (m) {
      overrides[key] = m[1].trim();
      prompt = prompt.replace(re, '');
    }
  }
  return { prompt: prompt.trim(), overrides };
}

/**
 * Prompt assembly: the system prompt with `{knowledge}` filled by retrieved chunks and custom
 * `{var}`s by request values, the citation instructions, and the conversation history — all within
 * the chat model's context budget. Pure; tokens are counted with cl100k (API.md §19.6).
 */
import { countTokens, truncateTokens } from '../ingest/tokens.js';
import { ChatError } from './errors.js';
import type { ChatMessage, PromptParameter, RefChunk } from './types.js';

/** Share of the context window we plan to fill (the rest absorbs tokenizer differences). */
const CONTEXT_SHARE = 0.95;
/** The answer never gets less than this share of the window reserved when max_tokens is absent. */
const MIN_ANSWER_SHARE = 0.125;

export const CITATION_PROMPT = `

# Citations
- Cite the knowledge pieces you used with markers of the form [ID:n], where n is the ID shown above the piece (e.g. "…is green [ID:2]." or "[ID:0][ID:3]").
- Put each marker at the end of the sentence it supports; use at most 4 markers per sentence.
- Cite only IDs that appear in the knowledge above; never invent one. Do not cite in code blocks.
- Write the marker exactly as [ID:n] — not (ID: n), not 【ID:n】, not "ref n".`;

const CITATION_TOKENS = countTokens(CITATION_PROMPT);

/** One knowledge block per chunk, as the model sees it. */
export function knowledgeBlock(chunk: RefChunk, index: number): string {
  let block = `\nID: ${index}\n├── Title: ${chunk.docnm_kwd}`;
  if (chunk.url) block += `\n├── URL: ${chunk.url}`;
  block += `\n└── Content:\n${chunk.content_with_weight}`;
  return block;
}

export function joinKnowledge(blocks: string[]): string {
  return blocks.length === 0 ? '' : `\n------\n${blocks.join('\n\n------\n\n')}`;
}

/**
 * Fills `{key}` slots of the system prompt: `{knowledge}` with the knowledge text, others with
 * request values; an optional key without a value becomes a space, a required one is an error.
 */
export function fillSystem(
  system: string,
  parameters: PromptParameter[],
  values: Record<string, unknown>,
  knowledge: string,
): string {
  let out = system;
  for (const p of parameters) {
    if (p.key === 'knowledge') continue;
    const v = values[p.key];
    if (v === undefined || v === null) {
      if (!p.optional) throw new ChatError(`Miss parameter: ${p.key}`);
      out = out.split(`{${p.key}}`).join(' ');
    } else {
      out = out.split(`{${p.key}}`).join(typeof v === 'string' ? v : JSON.stringify(v));
    }
  }
  return out.split('{knowledge}').join(knowledge);
}

export interface AssembleInput {
  system: string;
  parameters: PromptParameter[];
  values: Record<string, unknown>;
  chunks: RefChunk[];
  /** The conversation without system messages, ending with the user question. */
  history: ChatMessage[];
  quote: boolean;
  /** The chat model's context window in tokens. */
  contextTokens: number;
  /** llm_setting.max_tokens, when set. */
  maxAnswerTokens?: number;
  /** Text appended to the system prompt (attachments). */
  attachments?: string;
}

export interface AssembledPrompt {
  system: string;
  messages: Array<{ role: 'user' | 'assistant'; content: string }>;
  /** How many of the chunks made it into the prompt (a prefix of `chunks`). */
  chunkCount: number;
  /** Tokens the prompt uses. */
  usedTokens: number;
  /** max_tokens to ask the model for (never beyond what the window has left). */
  answerTokens: number;
}

/**
 * Builds the prompt within the budget: window × 0.95 minus the answer reserve holds the system
 * prompt, citation instructions and the last question first; then as many chunks (in rank order)
 * as fit; then earlier turns, newest first. A question too long for the window is cut.
 */
export function assemblePrompt(input: AssembleInput): AssembledPrompt {
  const window = Math.max(256, Math.floor(input.contextTokens));
  const total = Math.floor(window * CONTEXT_SHARE);
  const wanted = input.maxAnswerTokens ?? Math.floor(window * MIN_ANSWER_SHARE);
  const reserve = Math.min(Math.max(0, wanted), Math.floor(window / 2));
  let budget = total - reserve;

  const useKnowledge = input.chunks.length > 0;
  const citation = useKnowledge && input.quote ? CITATION_PROMPT : '';
  const template = fillSystem(input.system, input.parameters, input.values, '') + (input.attachments ?? '');
  const turns = input.history.filter((m) => m.role === 'user' || m.role === 'assistant');
  const last = turns[turns.length - 1];
  const lastText = stripLegacyMarkers(last?.content ?? '');

  const fixedTokens = countTokens(template) + (citation ? CITATION_TOKENS : 0);
  budget -= fixedTokens;
  let question = lastText;
  let questionTokens = countTokens(question);
  if (questionTokens > Math.max(0, budget - 16)) {
    question = truncateTokens(question, Math.max(16, budget - 16));
    questionTokens = countTokens(question);
  }
  budget -= questionTokens;

  // Knowledge: whole chunks in rank order while they fit; the first one cut when none fits.
  // Each block is counted once; 8 tokens per block cover the separators.
  const blocks: string[] = [];
  let spent = 0;
  for (let i = 0; i < input.chunks.length; i++) {
    const block = knowledgeBlock(input.chunks[i], i);
    const cost = countTokens(block) + 8;
    if (spent + cost > budget) {
      if (i === 0 && budget > 64) {
        blocks.push(truncateTokens(block, budget - 8));
        spent = budget;
      }
      break;
    }
    blocks.push(block);
    spent += cost;
  }
  budget -= spent;
  const system =
    fillSystem(input.system, input.parameters, input.values, joinKnowledge(blocks)) +
    (input.attachments ?? '') +
    (blocks.length > 0 ? citation : '');

  // Earlier turns, newest first, while they fit.
  const earlier: Array<{ role: 'user' | 'assistant'; content: string }> = [];
  let historyTokens = 0;
  for (let i = turns.length - 2; i >= 0; i--) {
    const m = turns[i];
    const content = stripLegacyMarkers(m.content);
    const cost = countTokens(content) + 4;
    if (cost > budget) break;
    budget -= cost;
    historyTokens += cost;
    earlier.unshift({ role: m.role as 'user' | 'assistant', content });
  }
  // Providers want the conversation to start with a user turn.
  while (earlier.length > 0 && earlier[0].role === 'assistant') {
    historyTokens -= countTokens(earlier[0].content) + 4;
    earlier.shift();
  }
  const messages = [...earlier, { role: 'user' as const, content: question }];
  const usedTokens = fixedTokens + spent + questionTokens + 4 + historyTokens;
  const answerTokens = Math.max(
    1,
    Math.min(input.maxAnswerTokens ?? window - usedTokens, window - usedTokens),
  );
  return { system, messages, chunkCount: blocks.length, usedTokens, answerTokens };
}

/**
 * What earlier turns look like to the model: without old `##n$$` citation markers and without
 * the reasoning (`<think>…</think>`) stored with answers.
 */
export function stripLegacyMarkers(text: string): string {
  return text.replace(/<think>[\s\S]*?<\/think>/g, '').replace(/##\d+\$\$/g, '');
}

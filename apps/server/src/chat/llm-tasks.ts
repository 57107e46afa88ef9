/**
 * Small model calls around retrieval: multi-turn question refinement, keyword extraction,
 * self-RAG relevance judgement and question rewriting, translation, related search terms.
 * Each takes a chat model (port) and returns plain text; prompts are ours.
 */
import type { ChatModel } from '../models/ports.js';
import type { ChatMessage } from './types.js';
import { stripLegacyMarkers } from './prompt.js';

/** Reasoning models may still put their thinking inline; only the answer counts here. */
function answerOf(text: string): string {
  return text.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
}

async function ask(model: ChatModel, system: string, user: string, signal?: AbortSignal, temperature = 0.2) {
  const res = await model.complete(
    [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    { temperature, signal },
  );
  return answerOf(res.text);
}

/** Rewrites the latest question into a standalone one using the conversation (refine_multiturn). */
export async function refineQuestion(
  model: ChatModel,
  history: ChatMessage[],
  signal?: AbortSignal,
): Promise<string> {
  const turns = history
    .filter((m) => m.role === 'user' || m.role === 'assistant')
    .slice(-7)
    .map((m) => `${m.role === 'user' ? 'USER' : 'ASSISTANT'}: ${stripLegacyMarkers(m.content)}`)
    .join('\n');
  const last = [...history].reverse().find((m) => m.role === 'user')?.content ?? '';
  const out = await ask(
    model,
    'You rewrite the last question of a conversation into one standalone question that can be understood without the conversation. Resolve pronouns and references from earlier turns. Keep the language of the question. Output only the rewritten question.',
    `Conversation:\n${turns}\n\nRewritten last question:`,
    signal,
  );
  return out.split('\n')[0].trim() || last;
}

/** Up to `topN` search keywords for a question (prompt_config.keyword). */
export async function extractKeywords(
  model: ChatModel,
  question: string,
  signal?: AbortSignal,
  topN = 3,
): Promise<string> {
  const out = await ask(
    model,
    `You extract the ${topN} most important search keywords or short phrases from a text, in the text's language. Output only the keywords, separated by commas.`,
    question,
    signal,
  );
  return out
    .split(/[,，\n]/)
    .map((k) => k.trim())
    .filter(Boolean)
    .slice(0, topN * 2)
    .join(',');
}

/** Self-RAG judgement: do the retrieved pieces help answer the question? */
export async function judgeRelevance(
  model: ChatModel,
  question: string,
  pieces: string[],
  signal?: AbortSignal,
): Promise<boolean> {
  if (pieces.length === 0) return false;
  const knowledge = pieces.map((p, i) => `[${i}] ${p.slice(0, 1500)}`).join('\n\n');
  const out = await ask(
    model,
    'You judge whether retrieved text pieces contain information that helps answer a question. Answer with exactly one word: yes or no.',
    `Question: ${question}\n\nRetrieved pieces:\n${knowledge}\n\nDo the pieces help answer the question?`,
    signal,
    0.01,
  );
  return !/^\W*no\b/i.test(out);
}

/** Self-RAG rewrite: a different formulation of the question for a second retrieval. */
export async function rewriteQuestion(
  model: ChatModel,
  question: string,
  signal?: AbortSignal,
): Promise<string> {
  const out = await ask(
    model,
    'A search for the question below found nothing useful in a knowledge base. Rewrite the question so that a keyword and semantic search is more likely to find the answer: use synonyms, expand abbreviations, name the key concepts. Keep the language. Output only the rewritten question.',
    question,
    signal,
    0.5,
  );
  return out.split('\n')[0].trim() || question;
}

/** The question translated into each of `languages` (prompt_config.cross_languages), joined. */
export async function translateQuestion(
  model: ChatModel,
  question: string,
  languages: string[],
  signal?: AbortSignal,
): Promise<string> {
  const out = await ask(
    model,
    `Translate the user's text into each of these languages: ${languages.join(', ')}. Output one translation per line, in that order, without labels or explanations.`,
    question,
    signal,
    0.1,
  );
  const lines = out
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return [question, ...lines].join('\n');
}

/** Related search terms (conversation/related_questions): the model's `1. …` lines, numbering stripped. */
export async function relatedQuestions(
  model: ChatModel,
  question: string,
  temperature = 0.9,
  signal?: AbortSignal,
): Promise<string[]> {
  const out = await ask(
    model,
    'You suggest search terms related to the user\'s keywords, to help them explore the topic further. Give 5 to 10 terms or short questions, in the language of the keywords, as a numbered list ("1. ...", "2. ..."), one per line, and nothing else.',
    `Keywords: ${question}\nRelated search terms:`,
    signal,
    temperature,
  );
  return out
    .split('\n')
    .filter((l) => /^\d+\. /.test(l))
    .map((l) => l.replace(/^\d+\. /, '').trim());
}

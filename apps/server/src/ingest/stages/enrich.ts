/**
 * Enrichment after chunking (API.md §19.7): with `auto_keywords` N the tenant's chat model proposes
 * N keywords per chunk (`important_kwd`), with `auto_questions` N it proposes N questions
 * (`question_kwd`). A model failure is written to the log and the chunks go on without them.
 */
import { progressMessage } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import type { ChunkDraft } from '../types.js';
import type { ChatModel } from '../../models/ports.js';
import { modelFor } from '../../models/registry.js';
import type { TaskProgress } from '../../queue/progress.js';

const PARALLEL = 4;

function keywordPrompt(n: number, text: string): string {
  return [
    'You extract keywords from text.',
    `Give the ${n} most important keywords or short phrases of the text below.`,
    'Use the language of the text. Separate them with commas. Answer with the keywords only.',
    '',
    'Text:',
    text,
  ].join('\n');
}

function questionPrompt(n: number, text: string): string {
  return [
    'You write questions that a text answers.',
    `Write ${n} distinct questions that the text below answers, covering its main content.`,
    'Use the language of the text. One question per line. Answer with the questions only.',
    '',
    'Text:',
    text,
  ].join('\n');
}

export function parseKeywords(answer: string, n: number): string[] {
  return answer
    .split(/[,，、\n]/)
    .map((k) => k.replace(/^[\s\-*•\d.)]+/, '').trim())
    .filter((k) => k.length > 0 && k.length <= 100)
    .slice(0, n);
}

export function parseQuestions(answer: string, n: number): string[] {
  return answer
    .split('\n')
    .map((q) => q.replace(/^[\s\-*•\d.)]+/, '').trim())
    .filter((q) => q.length > 0)
    .slice(0, n);
}

async function eachChunk(
  drafts: ChunkDraft[],
  progress: TaskProgress,
  work: (draft: ChunkDraft) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < drafts.length; i += PARALLEL) {
    await progress.checkCancel();
    await Promise.all(drafts.slice(i, i + PARALLEL).map(work));
  }
}

export async function enrichChunks(
  ctx: AppContext,
  tenantId: string,
  llmId: string,
  drafts: ChunkDraft[],
  config: { auto_keywords?: number; auto_questions?: number },
  progress: TaskProgress,
  signal: AbortSignal,
): Promise<void> {
  const keywords = Math.max(0, Math.floor(Number(config.auto_keywords) || 0));
  const questions = Math.max(0, Math.floor(Number(config.auto_questions) || 0));
  if ((keywords === 0 && questions === 0) || drafts.length === 0) return;
  let chat: ChatModel;
  try {
    chat = await modelFor(ctx, tenantId, llmId, 'chat');
  } catch (err) {
    await progress.report(null, progressMessage('enrichNoModel', { error: (err as Error).message }));
    return;
  }
  const ask = async (prompt: string) =>
    (await chat.complete([{ role: 'user', content: prompt }], { temperature: 0.2, signal })).text;
  if (keywords > 0) {
    const started = Date.now();
    await progress.report(null, progressMessage('keywordsStart'));
    try {
      await eachChunk(drafts, progress, async (d) => {
        const found = parseKeywords(await ask(keywordPrompt(keywords, d.content_with_weight)), keywords);
        d.important_kwd = [...new Set([...(d.important_kwd ?? []), ...found])];
      });
      await progress.report(
        0.82,
        progressMessage('keywordsDone', {
          count: drafts.length,
          seconds: ((Date.now() - started) / 1000).toFixed(2),
        }),
      );
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      if ((err as Error).name === 'TaskCancelled' || (err as Error).name === 'TaskLost') throw err;
      await progress.report(null, progressMessage('keywordsFailed', { error: (err as Error).message }));
    }
  }
  if (questions > 0) {
    const started = Date.now();
    await progress.report(null, progressMessage('questionsStart'));
    try {
      await eachChunk(drafts, progress, async (d) => {
        const found = parseQuestions(await ask(questionPrompt(questions, d.content_with_weight)), questions);
        d.question_kwd = [...new Set([...(d.question_kwd ?? []), ...found])];
      });
      await progress.report(
        0.84,
        progressMessage('questionsDone', {
          count: drafts.length,
          seconds: ((Date.now() - started) / 1000).toFixed(2),
        }),
      );
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      if ((err as Error).name === 'TaskCancelled' || (err as Error).name === 'TaskLost') throw err;
      await progress.report(null, progressMessage('questionsFailed', { error: (err as Error).message }));
    }
  }
}

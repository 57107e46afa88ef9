/**
 * The assistant's `reasoning` switch: a short multi-step research before answering. After the
 * first retrieval the model names what is still missing as up to two follow-up searches; their
 * new chunks join the knowledge. The steps are shown as the answer's thinking (between
 * `start_to_think` and `end_to_think`) and stored with it.
 */
import type { ChatModel } from '../models/ports.js';
import type { Knowledge } from './types.js';

const MAX_FOLLOW_UPS = 2;

export async function followUpQueries(
  model: ChatModel,
  question: string,
  knowledge: Knowledge,
  signal?: AbortSignal,
): Promise<string[]> {
  const found = knowledge.chunks
    .slice(0, 8)
    .map((c, i) => `[${i}] ${c.docnm_kwd}: ${c.content_with_weight.slice(0, 300)}`)
    .join('\n');
  const res = await model.complete(
    [
      {
        role: 'system',
        content: `You plan research in a knowledge base. Given a question and what a first search found, decide whether more searching is needed. If it is, write up to ${MAX_FOLLOW_UPS} short search queries for the missing information, one per line, nothing else. If the found pieces are enough, write exactly NONE.`,
      },
      { role: 'user', content: `Question: ${question}\n\nFound so far:\n${found || '(nothing)'}` },
    ],
    { temperature: 0.2, signal },
  );
  const text = res.text.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
  if (/^none\b/i.test(text)) return [];
  return text
    .split('\n')
    .map((l) => l.replace(/^\s*(?:\d+[.)]|[-*])\s*/, '').trim())
    .filter((l) => l && !/^none$/i.test(l))
    .slice(0, MAX_FOLLOW_UPS);
}

/** Adds the chunks of `more` that are not in `base` yet. */
export function mergeKnowledge(base: Knowledge, more: Knowledge): { merged: Knowledge; added: number } {
  const seen = new Set(base.chunks.map((c) => c.chunk_id));
  const fresh = more.chunks.filter((c) => !seen.has(c.chunk_id));
  const aggs = new Map(base.doc_aggs.map((d) => [d.doc_id, { ...d }]));
  for (const c of fresh) {
    const a = aggs.get(c.doc_id);
    if (a) a.count += 1;
    else
      aggs.set(c.doc_id, {
        doc_name: c.docnm_kwd,
        doc_id: c.doc_id,
        count: 1,
        ...(c.url ? { url: c.url } : {}),
      });
  }
  return {
    merged: {
      total: base.total + fresh.length,
      chunks: [...base.chunks, ...fresh],
      doc_aggs: [...aggs.values()].sort((a, b) => b.count - a.count),
    },
    added: fresh.length,
  };
}

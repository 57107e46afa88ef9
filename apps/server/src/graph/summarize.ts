/**
 * Model-written summaries of merged descriptions: a node or edge whose joined descriptions exceed
 * `thresholdTokens` gets one description written by the model (GraphRAG's "summarize descriptions"
 * step). The summary is tied to the raw text it stands for (`summary_of`), so a later merge or removal
 * that changes the raw descriptions brings the joined text back until the next summary.
 * A failed call keeps the joined descriptions and is counted; it never fails the job.
 */
import { isAbortError, mapConcurrent } from './concurrency.js';
import { DESCRIPTION_SEPARATOR, rawDescriptions, type KbGraph } from './kb-graph.js';
import { addUsage, emptyUsage, type GraphChatModel, type TokenUsage } from './ports.js';
import { summarizeDescriptionsPrompt } from './prompts.js';
import { countTokens, truncateTokens } from './tokens.js';

export interface SummarizeOptions {
  model: GraphChatModel;
  concurrency: number;
  /** Summarize when the joined descriptions are longer than this many tokens (default 500). */
  thresholdTokens?: number;
  /** Length limit of a summary (default 300 tokens). */
  summaryTokens?: number;
  /** Input limit per call (default 6000 tokens of descriptions). */
  maxInputTokens?: number;
  language?: string;
  signal?: AbortSignal;
}

export interface SummarizeResult {
  summarized: number;
  failed: number;
  usage: TokenUsage;
}

interface Target {
  kind: 'node' | 'edge';
  key: string;
  subject: string;
  joined: string;
  descriptions: string[];
}

/** Nodes and edges (restricted to `only` when given) whose descriptions need a summary. */
function targets(graph: KbGraph, threshold: number, only?: { nodes: string[]; edges: string[] }): Target[] {
  const out: Target[] = [];
  const nodeKeys = only ? only.nodes.filter((n) => graph.hasNode(n)) : graph.nodes();
  for (const key of nodeKeys) {
    const a = graph.getNodeAttributes(key);
    const descriptions = rawDescriptions(a.contributions);
    const joined = descriptions.join(DESCRIPTION_SEPARATOR);
    if (descriptions.length < 2 || a.summary_of === joined || countTokens(joined) <= threshold) continue;
    out.push({ kind: 'node', key, subject: key, joined, descriptions });
  }
  const edgeKeys = only ? only.edges.filter((e) => graph.hasEdge(e)) : graph.edges();
  for (const key of edgeKeys) {
    const a = graph.getEdgeAttributes(key);
    const descriptions = rawDescriptions(a.contributions);
    const joined = descriptions.join(DESCRIPTION_SEPARATOR);
    if (descriptions.length < 2 || a.summary_of === joined || countTokens(joined) <= threshold) continue;
    out.push({ kind: 'edge', key, subject: `${a.src_id} — ${a.tgt_id}`, joined, descriptions });
  }
  return out;
}

/** Keeps whole descriptions while they fit the input budget. */
function fitDescriptions(descriptions: string[], budget: number): string[] {
  const out: string[] = [];
  let used = 0;
  for (const d of descriptions) {
    const n = countTokens(d);
    if (used + n > budget) {
      if (out.length === 0) out.push(truncateTokens(d, budget));
      break;
    }
    out.push(d);
    used += n;
  }
  return out;
}

export async function summarizeLongDescriptions(
  graph: KbGraph,
  opts: SummarizeOptions,
  only?: { nodes: string[]; edges: string[] },
): Promise<SummarizeResult> {
  const threshold = opts.thresholdTokens ?? 500;
  const summaryTokens = opts.summaryTokens ?? 300;
  const budget = opts.maxInputTokens ?? 6000;
  const usage = emptyUsage();
  let summarized = 0;
  let failed = 0;
  const work = targets(graph, threshold, only);
  await mapConcurrent(
    work,
    opts.concurrency,
    async (t) => {
      const prompt = summarizeDescriptionsPrompt(
        t.subject,
        fitDescriptions(t.descriptions, budget),
        summaryTokens,
        opts.language,
      );
      try {
        const answer = await opts.model.complete([{ role: 'user', content: prompt }], {
          signal: opts.signal,
          maxTokens: summaryTokens * 2,
          temperature: 0.1,
        });
        addUsage(usage, answer.usage);
        const text = answer.text.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
        if (!text) {
          failed++;
          return;
        }
        if (t.kind === 'node') graph.mergeNodeAttributes(t.key, { description: text, summary_of: t.joined });
        else graph.mergeEdgeAttributes(t.key, { description: text, summary_of: t.joined });
        summarized++;
      } catch (err) {
        if (opts.signal?.aborted || isAbortError(err)) throw err;
        failed++;
      }
    },
    opts.signal,
  );
  return { summarized, failed, usage };
}

/**
 * RAPTOR summary tree (API.md §19.11). Layer by layer: cluster the layer's vectors (./cluster.ts), have
 * the chat model summarize each cluster with the KB's `prompt` (`{cluster_content}` = the cluster's
 * texts, each trimmed to an equal share of the model's context), answer limited to `max_token`, embed
 * the summaries, and make them the next layer — until one node remains (two nodes are summarized
 * directly). Summaries carry the ids of the chunks they summarize (`childIds`) and of the leaf chunks
 * beneath them (`sourceChunkIds`), so the caller can index them as chunks that cite their sources.
 *
 * Deterministic for a `random_seed`: clustering is seeded and summaries keep cluster order whatever the
 * order the model answers in. Summaries run on a pool of `concurrency` model calls.
 */
import crypto from 'node:crypto';
import { progressMessage } from '@lectern/shared';
import { mapConcurrent, throwIfAborted, isAbortError } from '../graph/concurrency.js';
import {
  addUsage,
  emptyUsage,
  type GraphChatModel,
  type GraphEmbedder,
  type ProgressReporter,
  type TokenUsage,
} from '../graph/ports.js';
import { truncateTokens } from '../graph/tokens.js';
import { clusterLayer, type ClusterOptions, type LayerClustering } from './cluster.js';

export interface RaptorChunk {
  id: string;
  text: string;
  vector: number[];
}

/** The KB's `parser_config.raptor` (API.md §19.6). */
export interface RaptorSettings {
  prompt: string;
  max_token: number;
  threshold: number;
  max_cluster: number;
  random_seed: number;
}

export interface RaptorSummary {
  id: string;
  text: string;
  vector: number[];
  /** 1 for summaries of leaf chunks, 2 for summaries of those, … */
  layer: number;
  childIds: string[];
  sourceChunkIds: string[];
}

export interface RaptorPorts {
  model: GraphChatModel;
  embedder: GraphEmbedder;
  concurrency: number;
  /** The chat model's context length in tokens (default 8192). */
  contextTokens?: number;
  signal?: AbortSignal;
  onProgress?: ProgressReporter;
  /** Clustering of one layer; defaults to running `clusterLayer` in-process (pass a worker-thread one). */
  cluster?: (vectors: number[][], opts: ClusterOptions) => LayerClustering | Promise<LayerClustering>;
  /** Id of a new summary chunk; default: 16 hex digits of SHA-256 over its text and children. */
  makeId?: (text: string, childIds: string[]) => string;
}

export interface RaptorResult {
  summaries: RaptorSummary[];
  /** Nodes per layer, leaves first (e.g. [10000, 58, 6, 1]). */
  layerSizes: number[];
  failedSummaries: number;
  usage: TokenUsage;
  timings: { umapMs: number; gmmMs: number };
}

/** Texts a model appends when it stops for length; they are not part of the summary. */
const TRUNCATION_NOTICES =
  /(······\n由于长度的原因，回答被截断了，要继续吗？|For the content length reason, it stopped, continue\?)/g;

function defaultId(text: string, childIds: string[]): string {
  return crypto
    .createHash('sha256')
    .update(text)
    .update('\u0000')
    .update(childIds.join(' '))
    .digest('hex')
    .slice(0, 16);
}

/** The prompt for one cluster: every text trimmed to an equal share of what the context leaves. */
export function clusterPrompt(
  template: string,
  texts: string[],
  contextTokens: number,
  maxToken: number,
): string {
  const share = Math.max(1, Math.floor((contextTokens - maxToken) / Math.max(1, texts.length)));
  const content = texts.map((t) => truncateTokens(t, share)).join('\n');
  return template.split('{cluster_content}').join(content);
}

interface Node {
  id: string;
  text: string;
  vector: number[];
  sources: string[];
}

export async function buildRaptorTree(
  chunks: readonly RaptorChunk[],
  settings: RaptorSettings,
  ports: RaptorPorts,
): Promise<RaptorResult> {
  const progress = ports.onProgress ?? (() => {});
  const cluster = ports.cluster ?? clusterLayer;
  const makeId = ports.makeId ?? defaultId;
  const contextTokens = ports.contextTokens ?? 8192;
  const usage = emptyUsage();
  const timings = { umapMs: 0, gmmMs: 0 };
  const summaries: RaptorSummary[] = [];
  let failedSummaries = 0;

  let layer: Node[] = chunks
    .filter((c) => c.text.trim() && c.vector.length > 0)
    .map((c) => ({ id: c.id, text: c.text, vector: c.vector, sources: [c.id] }));
  const layerSizes = [layer.length];
  if (layer.length <= 1) return { summaries, layerSizes, failedSummaries, usage, timings };

  for (let depth = 1; layer.length > 1; depth++) {
    throwIfAborted(ports.signal);
    let groups: number[][];
    if (layer.length === 2) groups = [[0, 1]];
    else {
      const c = await cluster(
        layer.map((n) => n.vector),
        { maxCluster: settings.max_cluster, threshold: settings.threshold, seed: settings.random_seed },
      );
      timings.umapMs += c.timings.umapMs;
      timings.gmmMs += c.timings.gmmMs;
      groups = Array.from({ length: c.clusters }, () => [] as number[]);
      c.labels.forEach((label, i) => groups[label].push(i));
    }
    throwIfAborted(ports.signal);

    const texts = await mapConcurrent(
      groups,
      ports.concurrency,
      async (members): Promise<string | null> => {
        const prompt = clusterPrompt(
          settings.prompt,
          members.map((i) => layer[i].text),
          contextTokens,
          settings.max_token,
        );
        try {
          const answer = await ports.model.complete(
            [
              { role: 'system', content: "You're a helpful assistant." },
              { role: 'user', content: prompt },
            ],
            { signal: ports.signal, maxTokens: settings.max_token, temperature: 0.3 },
          );
          addUsage(usage, answer.usage);
          const text = answer.text
            .replace(/<think>[\s\S]*?<\/think>/gi, '')
            .replace(TRUNCATION_NOTICES, '')
            .trim();
          if (!text) failedSummaries++;
          return text || null;
        } catch (err) {
          if (ports.signal?.aborted || isAbortError(err)) throw err;
          failedSummaries++;
          return null;
        }
      },
      ports.signal,
    );
    const kept = groups
      .map((members, g) => ({ members, text: texts[g] }))
      .filter((x): x is { members: number[]; text: string } => x.text !== null);
    if (kept.length === 0) {
      if (depth === 1) throw new Error(progressMessage('raptorNoSummary', { count: groups.length }));
      progress(undefined, progressMessage('raptorLayerStopped', { layer: depth, previous: depth - 1 }));
      break;
    }
    const { vectors } = await ports.embedder.embed(
      kept.map((k) => k.text),
      { signal: ports.signal },
    );
    const next: Node[] = kept.map((k, i) => {
      const childIds = k.members.map((m) => layer[m].id);
      const sources = [...new Set(k.members.flatMap((m) => layer[m].sources))];
      const id = makeId(k.text, childIds);
      summaries.push({
        id,
        text: k.text,
        vector: vectors[i],
        layer: depth,
        childIds,
        sourceChunkIds: sources,
      });
      return { id, text: k.text, vector: vectors[i], sources };
    });
    progress(undefined, progressMessage('raptorLayer', { from: layer.length, to: next.length }));
    layerSizes.push(next.length);
    if (next.length >= layer.length) break;
    layer = next;
  }
  return { summaries, layerSizes, failedSummaries, usage, timings };
}

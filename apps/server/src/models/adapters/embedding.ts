import { embedMany } from 'ai';
import type { EmbeddingModelV3 } from '@ai-sdk/provider';
import { withRetry, type CallPolicy } from '../call.js';
import { ModelError } from '../errors.js';
import type { CallOptions, EmbeddingModel, EmbeddingResult } from '../ports.js';
import { estimateTokens, type ModelSpec } from '../spec.js';
import { embeddingBatchSize, embeddingModelOf } from './providers.js';
import { vertexEmbed } from './vertex.js';

/** Embeddings through the AI SDK's embedMany (Vertex: its :predict shape), in batches, with retries. */
export class AiSdkEmbeddingModel implements EmbeddingModel {
  readonly kind = 'embedding' as const;
  readonly id: string;
  readonly batchSize: number;
  private readonly provider: string;
  private model: EmbeddingModelV3 | undefined;

  constructor(
    private readonly spec: ModelSpec,
    private readonly policy: CallPolicy,
  ) {
    this.id = spec.id;
    this.provider = spec.factory.name;
    this.batchSize = embeddingBatchSize(spec);
  }

  private async embedBatch(
    texts: string[],
    signal: AbortSignal,
  ): Promise<{ vectors: number[][]; tokens: number }> {
    if (this.spec.factory.protocol === 'google-vertex') return vertexEmbed(this.spec, texts, signal);
    this.model ??= embeddingModelOf(this.spec);
    const r = await embedMany({
      model: this.model,
      values: texts,
      maxRetries: 0,
      abortSignal: signal,
      maxParallelCalls: 1,
    });
    return { vectors: r.embeddings, tokens: r.usage?.tokens ?? 0 };
  }

  async embed(texts: string[], options: CallOptions = {}): Promise<EmbeddingResult> {
    if (texts.length === 0) return { vectors: [], dimension: 0, usage: { tokens: 0 } };
    const policy = options.timeoutMs ? { ...this.policy, timeoutMs: options.timeoutMs } : this.policy;
    const vectors: number[][] = [];
    let tokens = 0;
    for (let i = 0; i < texts.length; i += this.batchSize) {
      // Empty strings are rejected by several providers; a single space embeds as "nothing".
      const batch = texts.slice(i, i + this.batchSize).map((t) => (t.length > 0 ? t : ' '));
      const r = await withRetry(this.provider, policy, options.signal, (signal) =>
        this.embedBatch(batch, signal),
      );
      if (r.vectors.length !== batch.length || r.vectors.some((v) => !Array.isArray(v) || v.length === 0)) {
        throw new ModelError(
          `${this.provider}: malformed response from the server (expected ${batch.length} vectors)`,
          this.provider,
          undefined,
          false,
        );
      }
      vectors.push(...r.vectors);
      tokens += r.tokens > 0 ? r.tokens : estimateTokens(...batch);
    }
    const dimension = vectors[0].length;
    if (vectors.some((v) => v.length !== dimension)) {
      throw new ModelError(
        `${this.provider}: vectors of different sizes in one answer`,
        this.provider,
        undefined,
        false,
      );
    }
    return { vectors, dimension, usage: { tokens } };
  }
}

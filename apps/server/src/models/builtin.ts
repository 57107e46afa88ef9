import fs from 'node:fs';
import path from 'node:path';
import type { FeatureExtractionPipeline } from '@huggingface/transformers';
import { BUILTIN_FACTORY } from '@lectern/shared';
import type { Config } from '../config.js';
import { catalogueFactory, type CatalogueModel } from './catalogue.js';
import { ModelError } from './errors.js';
import type { CallOptions, EmbeddingModel, EmbeddingResult } from './ports.js';
import { estimateTokens } from './spec.js';

/**
 * The bundled local embedding model ("Builtin" factory) through @huggingface/transformers (ONNX).
 * Weights are read from BUILTIN_MODEL_DIR/<hub id>/; when absent they are downloaded there from the
 * model hub on first use. Offline with no local copy, loading fails with a clear message and the
 * model counts as unavailable for a minute (the product then works keyword-only).
 */
const FAILURE_TTL_MS = 60_000;

interface Loader {
  pipeline: Promise<FeatureExtractionPipeline>;
}

const loaded = new Map<string, Loader>();
const failures = new Map<string, { at: number; message: string }>();
/** transformers.js keeps its settings in one global `env`: loads are serialised so each sees its own. */
let loadChain: Promise<unknown> = Promise.resolve();

export function builtinModel(llmName: string): CatalogueModel | undefined {
  return catalogueFactory(BUILTIN_FACTORY)?.llm.find((m) => m.llm_name === llmName);
}

function hubIdOf(model: CatalogueModel): string {
  return model.hub_id ?? model.llm_name;
}

function keyOf(config: Config, model: CatalogueModel): string {
  return `${config.builtinModelDir}|${config.builtinModelHub}|${hubIdOf(model)}`;
}

export function hasLocalCopy(config: Config, model: CatalogueModel): boolean {
  return fs.existsSync(path.join(config.builtinModelDir, hubIdOf(model), 'config.json'));
}

/** False after a failed load (for a minute), true otherwise: a first use may still download it. */
export function builtinMaybeAvailable(config: Config, llmName: string): boolean {
  const model = builtinModel(llmName);
  if (!model) return false;
  if (loaded.has(keyOf(config, model)) || hasLocalCopy(config, model)) return true;
  const failed = failures.get(keyOf(config, model));
  return !failed || Date.now() - failed.at > FAILURE_TTL_MS;
}

function unavailable(config: Config, model: CatalogueModel, err: unknown, local: boolean): ModelError {
  const reason = err instanceof Error ? err.message : String(err);
  const offline = /fetch failed|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|network/i.test(
    `${reason} ${String((err as { cause?: unknown })?.cause ?? '')}`,
  );
  const message = local
    ? `Builtin embedding model ${model.llm_name} cannot be loaded from ${config.builtinModelDir}: ${reason.split('\n')[0]}`
    : offline
      ? `Builtin embedding model ${model.llm_name} is not available: no local copy in ${config.builtinModelDir} and the model hub cannot be reached`
      : `Builtin embedding model ${model.llm_name} is not available: no local copy in ${config.builtinModelDir} and the download failed (${reason.split('\n')[0]})`;
  return new ModelError(message, BUILTIN_FACTORY, undefined, false);
}

async function load(config: Config, model: CatalogueModel): Promise<FeatureExtractionPipeline> {
  const local = hasLocalCopy(config, model);
  const run = loadChain.then(async () => {
    // Imported lazily: onnxruntime is heavy and only needed when the local model is actually used.
    const tf = await import('@huggingface/transformers');
    fs.mkdirSync(config.builtinModelDir, { recursive: true });
    tf.env.localModelPath = config.builtinModelDir;
    tf.env.cacheDir = config.builtinModelDir; // downloads land where the next start looks for them
    tf.env.allowLocalModels = local;
    tf.env.allowRemoteModels = true;
    tf.env.useFSCache = true;
    tf.env.remoteHost = config.builtinModelHub.endsWith('/')
      ? config.builtinModelHub
      : `${config.builtinModelHub}/`;
    return tf.pipeline('feature-extraction', hubIdOf(model), { dtype: 'q8' });
  });
  loadChain = run.catch(() => undefined);
  try {
    return await run;
  } catch (err) {
    throw unavailable(config, model, err, local);
  }
}

function pipelineFor(config: Config, model: CatalogueModel): Promise<FeatureExtractionPipeline> {
  const key = keyOf(config, model);
  const existing = loaded.get(key);
  if (existing) return existing.pipeline;
  const pipeline = load(config, model);
  loaded.set(key, { pipeline });
  pipeline.catch((err: unknown) => {
    loaded.delete(key);
    failures.set(key, { at: Date.now(), message: err instanceof Error ? err.message : String(err) });
  });
  return pipeline;
}

export class BuiltinEmbeddingModel implements EmbeddingModel {
  readonly kind = 'embedding' as const;
  readonly id: string;
  readonly batchSize = 16;

  constructor(
    private readonly config: Config,
    private readonly model: CatalogueModel,
  ) {
    this.id = `${model.llm_name}@${BUILTIN_FACTORY}`;
  }

  /** Loads (or downloads) the weights; resolves when the model is ready. */
  async ready(): Promise<void> {
    await pipelineFor(this.config, this.model);
  }

  async embed(texts: string[], options: CallOptions = {}): Promise<EmbeddingResult> {
    if (texts.length === 0) return { vectors: [], dimension: 0, usage: { tokens: 0 } };
    const extractor = await pipelineFor(this.config, this.model);
    const vectors: number[][] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      if (options.signal?.aborted)
        throw new ModelError(`${BUILTIN_FACTORY}: call cancelled`, BUILTIN_FACTORY, undefined, false);
      const batch = texts.slice(i, i + this.batchSize).map((t) => (t.length > 0 ? t : ' '));
      const out = await extractor(batch, { pooling: this.model.pooling ?? 'mean', normalize: true });
      vectors.push(...(out.tolist() as number[][]));
    }
    return { vectors, dimension: vectors[0].length, usage: { tokens: estimateTokens(...texts) } };
  }
}

import crypto from 'node:crypto';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createAzure } from '@ai-sdk/azure';
import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import type { EmbeddingModelV3, LanguageModelV3 } from '@ai-sdk/provider';
import { ModelError } from '../errors.js';
import { trimSlash, type ModelSpec } from '../spec.js';
import { vertexBaseUrl, vertexFetch } from './vertex.js';

/**
 * Builds Vercel AI SDK model objects for a spec, by the factory's protocol. The long tail of
 * OpenAI-shaped APIs goes through @ai-sdk/openai-compatible; Ollama through its OpenAI-compatible /v1 API.
 */

function unsupported(spec: ModelSpec, what: string): ModelError {
  return new ModelError(
    `${spec.factory.name}: ${what} models are not supported by this provider`,
    spec.factory.name,
    undefined,
    false,
  );
}

function requireBase(spec: ModelSpec): string {
  if (!spec.baseUrl) {
    throw new ModelError(`${spec.factory.name}: a base url is required`, spec.factory.name, undefined, false);
  }
  return trimSlash(spec.baseUrl);
}

/** Ollama serves its OpenAI-compatible API under /v1 of the address people know (http://host:11434). */
export function ollamaV1(base: string): string {
  const b = trimSlash(base);
  return b.endsWith('/v1') ? b : `${b}/v1`;
}

function openRouterBody(spec: ModelSpec) {
  const order = (spec.credentials.provider_order ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (order.length === 0) return undefined;
  // The SDK passes the request body as a plain object; OpenRouter reads its routing preference from it.
  return (body: Record<string, unknown>) => ({ ...body, provider: { order, allow_fallbacks: true } });
}

function compatible(spec: ModelSpec) {
  const base = spec.factory.protocol === 'ollama' ? ollamaV1(requireBase(spec)) : requireBase(spec);
  return createOpenAICompatible({
    name: spec.factory.name,
    baseURL: base,
    // Local servers accept any key; send none rather than a placeholder when there is none.
    apiKey: spec.apiKey && spec.apiKey !== 'x' ? spec.apiKey : undefined,
    includeUsage: true,
    transformRequestBody: spec.factory.name === 'OpenRouter' ? openRouterBody(spec) : undefined,
    fetch: spec.fetch,
  });
}

function azure(spec: ModelSpec) {
  return createAzure({
    apiKey: spec.apiKey,
    baseURL: `${requireBase(spec).replace(/\/openai$/, '')}/openai`,
    apiVersion: spec.credentials.api_version || '2024-10-21',
    useDeploymentBasedUrls: true,
    fetch: spec.fetch,
  });
}

function google(spec: ModelSpec) {
  if (spec.factory.protocol === 'google-vertex') {
    return createGoogleGenerativeAI({
      apiKey: 'vertex',
      baseURL: vertexBaseUrl(spec),
      fetch: vertexFetch(spec),
    });
  }
  return createGoogleGenerativeAI({ apiKey: spec.apiKey, baseURL: requireBase(spec), fetch: spec.fetch });
}

function bedrock(spec: ModelSpec) {
  return createAmazonBedrock({
    region: spec.credentials.bedrock_region,
    accessKeyId: spec.credentials.bedrock_ak,
    secretAccessKey: spec.credentials.bedrock_sk,
    ...(spec.baseUrl ? { baseURL: trimSlash(spec.baseUrl) } : {}),
    fetch: spec.fetch,
  });
}

/** SDK chat models built, per fetch (the server's guarded fetch is one per config) and spec. */
const languageModels = new WeakMap<typeof fetch, Map<string, LanguageModelV3>>();
const MAX_LANGUAGE_MODELS = 200;

/** Everything a built model depends on, hashed (the key holds no api key in clear). */
function specKey(spec: ModelSpec): string {
  const parts = [spec.factory.protocol, spec.factory.name, spec.callName, spec.apiKey, spec.baseUrl];
  return crypto
    .createHash('sha256')
    .update(JSON.stringify([...parts, spec.credentials]))
    .digest('base64');
}

/**
 * The SDK chat model of a spec. The model objects hold only their settings, so one is reused by
 * every call with the same spec and fetch: building one constructs the provider's response schemas,
 * ~1–2 ms that every agent run and chat turn paid again.
 */
export function languageModelOf(spec: ModelSpec): LanguageModelV3 {
  if (!spec.fetch) return buildLanguageModel(spec);
  let byKey = languageModels.get(spec.fetch);
  if (!byKey) languageModels.set(spec.fetch, (byKey = new Map()));
  const key = specKey(spec);
  const found = byKey.get(key);
  if (found) return found;
  const model = buildLanguageModel(spec);
  byKey.set(key, model);
  // Oldest out: a tenant changing its key or base URL leaves its old model behind.
  if (byKey.size > MAX_LANGUAGE_MODELS) byKey.delete(byKey.keys().next().value as string);
  return model;
}

function buildLanguageModel(spec: ModelSpec): LanguageModelV3 {
  const name = spec.callName;
  switch (spec.factory.protocol) {
    case 'openai':
      return createOpenAI({
        apiKey: spec.apiKey,
        baseURL: requireBase(spec),
        name: spec.factory.name,
        fetch: spec.fetch,
      }).chat(name);
    case 'openai-compatible':
    case 'ollama':
      return compatible(spec).chatModel(name);
    case 'azure':
      return azure(spec).chat(name);
    case 'anthropic':
      return createAnthropic({ apiKey: spec.apiKey, baseURL: requireBase(spec), fetch: spec.fetch })(name);
    case 'google':
    case 'google-vertex':
      return google(spec).chat(name);
    case 'bedrock':
      return bedrock(spec)(name);
    case 'builtin':
      throw unsupported(spec, 'chat');
  }
}

export function embeddingModelOf(spec: ModelSpec): EmbeddingModelV3 {
  const name = spec.callName;
  switch (spec.factory.protocol) {
    case 'openai':
      return createOpenAI({
        apiKey: spec.apiKey,
        baseURL: requireBase(spec),
        name: spec.factory.name,
        fetch: spec.fetch,
      }).embedding(name);
    case 'openai-compatible':
    case 'ollama':
      return compatible(spec).embeddingModel(name);
    case 'azure':
      return azure(spec).embedding(name);
    case 'google':
      return google(spec).embedding(name);
    case 'bedrock':
      return bedrock(spec).embedding(name);
    case 'anthropic':
    case 'google-vertex': // Vertex embeddings use :predict, see vertex.ts
    case 'builtin':
      throw unsupported(spec, 'embedding');
  }
}

/** Provider requests per batch of texts (Gemini's batchEmbedContents takes at most 100). */
export function embeddingBatchSize(spec: ModelSpec): number {
  switch (spec.factory.protocol) {
    case 'openai':
    case 'azure':
      return 256;
    case 'google':
    case 'google-vertex':
      return 100;
    case 'bedrock':
      return 1;
    default:
      return 32;
  }
}

/** Speech-to-text and text-to-speech over OpenAI-shaped /audio endpoints (OpenAI, Groq, Xinference…). */
export function audioProviderOf(spec: ModelSpec) {
  if (spec.factory.audio !== 'openai')
    throw unsupported(spec, spec.modelType === 'tts' ? 'text-to-speech' : 'speech-to-text');
  return createOpenAI({
    apiKey: spec.apiKey && spec.apiKey !== 'x' ? spec.apiKey : 'none',
    baseURL: requireBase(spec),
    name: spec.factory.name,
    fetch: spec.fetch,
  });
}

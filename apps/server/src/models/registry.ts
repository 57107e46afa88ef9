import { sql } from 'kysely';
import { BUILTIN_FACTORY, callableModelName, splitModelId, type ModelType } from '@lectern/shared';
import type { AppContext } from '../context.js';
import { errors } from '../errors.js';
import { updateStamps } from '../util/time.js';
import { policyFromConfig, type CallPolicy } from './call.js';
import { catalogueFactory, catalogueModel, storedModelName } from './catalogue.js';
import { openCredentials } from './credentials.js';
import { builtinMaybeAvailable, builtinModel, BuiltinEmbeddingModel } from './builtin.js';
import { AiSdkChatModel, AiSdkImage2TextModel } from './adapters/chat.js';
import { AiSdkEmbeddingModel } from './adapters/embedding.js';
import { FetchRerankModel } from './adapters/rerank.js';
import { AiSdkSpeech2TextModel, AiSdkTtsModel } from './adapters/audio.js';
import { ModelError } from './errors.js';
import { metered } from './metering.js';
import { modelFetchOf } from './outbound.js';
import type { AnyModel, PortOf } from './ports.js';
import type { ModelSpec } from './spec.js';
import type { TenantLlmTable } from '../db/tables/models.js';

/**
 * Model ids → adapters. `resolveModel` finds the tenant's configured model (or a Builtin one) and
 * decrypts its credentials; `modelFor` returns the port for it, metered into tenant_llm.used_tokens.
 */

/** Tenant column holding the system default model of each type (set_tenant_info). */
export const DEFAULT_MODEL_COLUMN = {
  chat: 'llm_id',
  embedding: 'embd_id',
  rerank: 'rerank_id',
  image2text: 'img2txt_id',
  speech2text: 'asr_id',
  tts: 'tts_id',
} as const;

function typeFits(rowType: string, wanted: ModelType | undefined): boolean {
  if (!wanted || rowType === wanted) return true;
  // Vision models also chat (their catalogue tags say CHAT).
  return wanted === 'chat' && rowType === 'image2text';
}

export function specFromRow(ctx: AppContext, row: TenantLlmTable, wanted?: ModelType): ModelSpec {
  const factory = catalogueFactory(row.llm_factory);
  if (!factory) throw errors.data(`LLM factory ${row.llm_factory} is not allowed`);
  const { apiKey, credentials } = openCredentials(ctx.secrets, row.api_key);
  const callField = factory.call_name_field;
  return {
    id: `${row.llm_name}@${row.llm_factory}`,
    factory,
    storedName: row.llm_name,
    callName: (callField && credentials[callField]) || callableModelName(row.llm_name),
    modelType: (wanted ?? row.model_type) as ModelType,
    apiKey,
    credentials,
    baseUrl: row.api_base || factory.default_base_url,
    maxTokens: row.max_tokens,
    catalogue: catalogueModel(row.llm_factory, row.llm_name),
  };
}

function builtinSpec(name: string): ModelSpec | undefined {
  const model = builtinModel(name);
  const factory = catalogueFactory(BUILTIN_FACTORY);
  if (!model || !factory) return undefined;
  return {
    id: `${model.llm_name}@${BUILTIN_FACTORY}`,
    factory,
    storedName: model.llm_name,
    callName: model.llm_name,
    modelType: 'embedding',
    apiKey: '',
    credentials: {},
    baseUrl: '',
    maxTokens: model.max_tokens,
    catalogue: model,
  };
}

/**
 * Resolves "<llm_name>@<factory>" (or a bare name, API.md §1.8) against the tenant's enabled models
 * and the bundled Builtin ones. Throws 102 with a readable message when it cannot.
 */
export async function resolveModel(
  ctx: AppContext,
  tenantId: string,
  modelId: string | null | undefined,
  type?: ModelType,
): Promise<ModelSpec> {
  if (!modelId) throw errors.data(type ? `No ${type} model is set.` : 'No model is set.');
  const { name, factory } = splitModelId(modelId);
  if (factory === BUILTIN_FACTORY || (!factory && builtinModel(name))) {
    const spec = builtinSpec(name);
    if (spec && typeFits('embedding', type)) return spec;
    if (factory === BUILTIN_FACTORY) throw errors.data(`Model(${modelId}) not found.`);
  }
  let q = ctx.db.kysely
    .selectFrom('tenant_llm')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('status', '=', '1');
  if (factory) {
    const f = catalogueFactory(factory);
    const names = f ? [...new Set([name, storedModelName(f, name)])] : [name];
    q = q.where('llm_factory', '=', factory).where('llm_name', 'in', names);
  } else {
    q = q.where('llm_name', '=', name);
  }
  const rows = await q.execute();
  const row = rows.find((r) => r.model_type === type) ?? rows.find((r) => typeFits(r.model_type, type));
  if (!row) {
    if (rows.length > 0) {
      const t = rows[0].model_type;
      throw errors.data(`Model(${modelId}) is a${/^[aeiou]/.test(t) ? 'n' : ''} ${t} model, not ${type}.`);
    }
    throw errors.data(`Model(${modelId}) not authorized`);
  }
  return specFromRow(ctx, row, type);
}

/** Adds tokens to the tenant model's `used_tokens` (no-op for Builtin or unknown rows). */
export async function recordUsage(
  ctx: AppContext,
  tenantId: string,
  modelId: string,
  tokens: number,
): Promise<void> {
  if (!Number.isFinite(tokens) || tokens <= 0) return;
  const { name, factory } = splitModelId(modelId);
  if (!factory || factory === BUILTIN_FACTORY) return;
  await ctx.db.kysely
    .updateTable('tenant_llm')
    .set({ used_tokens: sql<number>`used_tokens + ${Math.round(tokens)}`, ...updateStamps() })
    .where('tenant_id', '=', tenantId)
    .where('llm_factory', '=', factory)
    .where('llm_name', '=', name)
    .execute();
}

/** Builds the (unmetered) adapter for a resolved spec. */
export function buildModel(
  ctx: AppContext,
  spec: ModelSpec,
  type: ModelType,
  policy: CallPolicy = policyFromConfig(ctx.config),
): AnyModel {
  if (spec.factory.protocol === 'builtin') {
    const model = builtinModel(spec.storedName);
    if (!model || type !== 'embedding')
      throw new ModelError(
        `${BUILTIN_FACTORY}: ${spec.storedName} is not a ${type} model`,
        BUILTIN_FACTORY,
        undefined,
        false,
      );
    return new BuiltinEmbeddingModel(ctx.config, model);
  }
  spec = spec.fetch ? spec : { ...spec, fetch: modelFetchOf(ctx.config) };
  switch (type) {
    case 'chat':
      return new AiSdkChatModel(spec, policy);
    case 'image2text':
      return new AiSdkImage2TextModel(spec, policy);
    case 'embedding':
      return new AiSdkEmbeddingModel(spec, policy);
    case 'rerank':
      return new FetchRerankModel(spec, policy);
    case 'speech2text':
      return new AiSdkSpeech2TextModel(spec, policy);
    case 'tts':
      return new AiSdkTtsModel(spec, policy);
    case 'ocr':
      throw new ModelError(
        `${spec.factory.name}: OCR models are not supported`,
        spec.factory.name,
        undefined,
        false,
      );
  }
}

/**
 * The port for a tenant's model, built from its stored credentials. Usage of every call is added to
 * the tenant model's `used_tokens`. Without `type` the model's own type is used.
 */
export async function modelFor<T extends keyof PortOf>(
  ctx: AppContext,
  tenantId: string,
  modelId: string,
  type: T,
): Promise<PortOf[T]>;
export async function modelFor(ctx: AppContext, tenantId: string, modelId: string): Promise<AnyModel>;
export async function modelFor(
  ctx: AppContext,
  tenantId: string,
  modelId: string,
  type?: keyof PortOf,
): Promise<AnyModel> {
  const spec = await resolveModel(ctx, tenantId, modelId, type);
  const model = buildModel(ctx, spec, type ?? (spec.modelType as keyof PortOf));
  return metered(model, (tokens) => recordUsage(ctx, tenantId, spec.id, tokens));
}

/** The tenant's system default model id for a type ("" when none is set). */
export async function defaultModelId(
  ctx: AppContext,
  tenantId: string,
  type: keyof typeof DEFAULT_MODEL_COLUMN,
): Promise<string> {
  const row = await ctx.db.kysely
    .selectFrom('tenant')
    .selectAll()
    .where('id', '=', tenantId)
    .executeTakeFirst();
  return (row?.[DEFAULT_MODEL_COLUMN[type]] as string | null | undefined) ?? '';
}

/**
 * Whether `embdId` names an embedding model this tenant can use now: an enabled row with its
 * credentials, or a Builtin model with a local copy (or not yet known to be unreachable). No call is
 * made. When false, callers work keyword-only and say so.
 */
export async function embeddingAvailable(
  ctx: AppContext,
  tenantId: string,
  embdId: string | null | undefined,
): Promise<boolean> {
  if (!embdId) return false;
  try {
    const spec = await resolveModel(ctx, tenantId, embdId, 'embedding');
    if (spec.factory.protocol === 'builtin') return builtinMaybeAvailable(ctx.config, spec.storedName);
    if (spec.factory.protocol === 'anthropic') return false;
    return spec.factory.local || spec.apiKey !== '' || Object.keys(spec.credentials).length > 0;
  } catch {
    return false;
  }
}

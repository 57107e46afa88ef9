import {
  callableModelName,
  type contract,
  RetCode,
  type BodyOf,
  type ModelType,
  type VerifyResult,
} from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { ApiError, errors } from '../../http/envelope.js';
import {
  catalogueFactory,
  requiredCredentialFields,
  storedModelName,
  usesPackedCredentials,
  type CatalogueFactory,
} from '../../models/catalogue.js';
import { packCredentials, sealSecret, unpack } from '../../models/credentials.js';
import { parseServiceAccount } from '../../models/adapters/vertex.js';
import { probeGroup, probeModel } from '../../models/probe.js';
import type { ModelSpec } from '../../models/spec.js';
import { newId } from '../../util/ids.js';
import { creationStamps, updateStamps } from '../../util/time.js';

type SetApiKeyBody = BodyOf<typeof contract.llm.setApiKey>;
type AddLlmBody = BodyOf<typeof contract.llm.addLlm>;

/**
 * set_api_key and add_llm (API.md §4): check the request against the provider's catalogue entry,
 * probe the key with real calls (unless MODEL_VERIFY=0), then upsert tenant_llm rows with the
 * secrets encrypted.
 */

export function allowedFactory(name: string): CatalogueFactory {
  const f = catalogueFactory(name);
  if (!f || f.hidden) throw errors.data(`LLM factory ${name} is not allowed`);
  return f;
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

function missing(names: string[]): ApiError {
  return new ApiError(RetCode.ARGUMENT_ERROR, `required argument are missing: ${names.join(',')}; `);
}

/** Provider credential fields: present where the catalogue requires them, within their options, decodable. */
function checkCredentials(
  f: CatalogueFactory,
  type: ModelType | undefined,
  raw: Record<string, unknown>,
  apiKey: string,
): void {
  const packed = apiKey.trim().startsWith('{') ? unpack(apiKey).credentials : {};
  const value = (name: string) => raw[name] ?? packed[name] ?? (name === 'api_key' ? apiKey : undefined);
  const required = type
    ? requiredCredentialFields(f, type)
    : f.credentials.filter((c) => c.required && !c.required_for);
  const absent = required.filter((c) => blank(value(c.name))).map((c) => c.name);
  if (absent.length > 0) throw missing(absent);
  for (const c of f.credentials) {
    const v = value(c.name);
    if (blank(v)) continue;
    if (typeof v !== 'string') throw errors.exception(`\`${c.name}\` must be a string.`);
    if (c.options && !c.options.includes(v))
      throw errors.argument(`required argument values: ${c.name}=${v}`);
    if (c.encoding === 'base64') {
      try {
        parseServiceAccount(v);
      } catch {
        throw errors.exception(`\`${c.name}\` must be a base64-encoded service account JSON key.`);
      }
    }
  }
}

function checkBaseUrl(url: string, field: string): void {
  let ok = false;
  try {
    ok = ['http:', 'https:'].includes(new URL(url).protocol);
  } catch {
    ok = false;
  }
  if (!ok) throw errors.exception(`\`${field}\` must be an http(s) URL.`);
}

function specFor(
  f: CatalogueFactory,
  storedName: string,
  type: ModelType,
  plainSecret: string,
  apiBase: string,
  maxTokens: number,
): ModelSpec {
  const { apiKey, credentials } = usesPackedCredentials(f)
    ? unpack(plainSecret)
    : { apiKey: plainSecret, credentials: {} };
  return {
    id: `${storedName}@${f.name}`,
    factory: f,
    storedName,
    callName: (f.call_name_field && credentials[f.call_name_field]) || callableModelName(storedName),
    modelType: type,
    apiKey,
    credentials,
    baseUrl: apiBase || f.default_base_url,
    maxTokens,
    catalogue: f.llm.find((m) => m.llm_name === storedName),
  };
}

interface RowInput {
  llm_name: string;
  model_type: string;
  api_key: string;
  api_base: string;
  max_tokens: number;
}

/** Inserts or updates the tenant's rows (one transaction); keeps used_tokens and the enable switch. */
async function upsertRows(
  ctx: AppContext,
  tenantId: string,
  factory: string,
  rows: RowInput[],
): Promise<void> {
  if (rows.length === 0) return;
  await ctx.db.kysely.transaction().execute(async (trx) => {
    for (const r of rows) {
      const sealed = sealSecret(ctx.secrets, r.api_key);
      await trx
        .insertInto('tenant_llm')
        .values({
          id: newId(),
          tenant_id: tenantId,
          llm_factory: factory,
          model_type: r.model_type,
          llm_name: r.llm_name,
          api_key: sealed,
          api_base: r.api_base,
          max_tokens: r.max_tokens,
          used_tokens: 0,
          status: '1',
          ...creationStamps(),
        })
        .onConflict((oc) =>
          oc.columns(['tenant_id', 'llm_factory', 'llm_name']).doUpdateSet({
            model_type: r.model_type,
            api_key: sealed,
            api_base: r.api_base,
            max_tokens: r.max_tokens,
            ...updateStamps(),
          }),
        )
        .execute();
    }
  });
}

function probeLine(
  f: CatalogueFactory,
  name: string,
  type: string,
  reason: string,
  withKey: boolean,
): string {
  const tail = withKey ? ' using this api key.' : '.';
  return type === 'embedding'
    ? `\nFail to access embedding model(${name})${tail}${reason}`
    : `\nFail to access model(${f.name}/${name})${tail}${reason}`;
}

export async function setApiKey(
  ctx: AppContext,
  tenantId: string,
  body: SetApiKeyBody,
  raw: Record<string, unknown>,
): Promise<true | VerifyResult> {
  const f = allowedFactory(body.llm_factory);
  checkCredentials(f, undefined, raw, body.api_key);
  const baseUrl = body.base_url ?? '';
  if (baseUrl) checkBaseUrl(baseUrl, 'base_url');
  const secret = packCredentials(f, raw, body.api_key);
  const models: Array<{ llm_name: string; model_type: string; max_tokens: number }> =
    f.llm.length > 0
      ? f.llm
      : body.llm_name && body.model_type
        ? [{ llm_name: storedModelName(f, body.llm_name), model_type: body.model_type, max_tokens: 8192 }]
        : [];

  let msg = '';
  if (body.verify || ctx.config.modelVerify) {
    const tried = new Set<string>();
    for (const m of models) {
      const group = probeGroup(m.model_type);
      if (!group || tried.has(group)) continue;
      tried.add(group);
      const probeType = (group === 'chat' ? 'chat' : group) as ModelType;
      const spec = specFor(f, m.llm_name, probeType, secret, baseUrl, m.max_tokens);
      const reason = await probeModel(ctx, spec, probeType);
      if (reason === null) {
        msg = '';
        break;
      }
      msg += probeLine(f, callableModelName(m.llm_name), m.model_type, reason, true);
    }
  }
  if (body.verify) return { message: msg, success: msg.trim().length === 0 };
  if (msg) throw errors.data(msg);

  await upsertRows(
    ctx,
    tenantId,
    f.name,
    models.map((m) => ({
      llm_name: m.llm_name,
      model_type: m.model_type,
      api_key: secret,
      api_base: baseUrl,
      max_tokens: m.max_tokens,
    })),
  );
  return true;
}

export async function addLlm(
  ctx: AppContext,
  tenantId: string,
  body: AddLlmBody,
  raw: Record<string, unknown>,
): Promise<true | VerifyResult> {
  const f = allowedFactory(body.llm_factory);
  const need: string[] = [];
  if (blank(body.model_type)) need.push('model_type');
  if (blank(body.llm_name)) need.push('llm_name');
  if (f.base_url_required && blank(body.api_base)) need.push('api_base');
  if (!f.local && !usesPackedCredentials(f) && blank(body.api_key)) need.push('api_key');
  if (need.length > 0) throw missing(need);
  const type = body.model_type as ModelType;
  if (!f.model_types.includes(type))
    throw errors.data(`LLM factory ${f.name} does not support ${type} models.`);
  const apiKey = blank(body.api_key) ? 'x' : (body.api_key as string);
  checkCredentials(f, type, raw, apiKey);
  const apiBase = body.api_base?.trim() ?? '';
  if (apiBase) checkBaseUrl(apiBase, 'api_base');

  const storedName = storedModelName(f, (body.llm_name as string).trim());
  const catalogueEntry = f.llm.find((m) => m.llm_name === storedName);
  const maxTokens = body.max_tokens ?? catalogueEntry?.max_tokens ?? 8192;
  const secret = packCredentials(f, raw, apiKey);

  let msg = '';
  if (body.verify || ctx.config.modelVerify) {
    const spec = specFor(f, storedName, type, secret, apiBase, maxTokens);
    const reason = await probeModel(ctx, spec, type);
    if (reason !== null) msg = probeLine(f, callableModelName(storedName), type, reason, false);
  }
  if (body.verify) return { message: msg, success: msg.trim().length === 0 };
  if (msg) throw errors.data(msg);

  await upsertRows(ctx, tenantId, f.name, [
    { llm_name: storedName, model_type: type, api_key: secret, api_base: apiBase, max_tokens: maxTokens },
  ]);
  return true;
}

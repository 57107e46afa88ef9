/**
 * Tracing keys of a tenant (API.md §14): stored only after the tracing host accepted them
 * (Langfuse's public projects endpoint with Basic auth), the secret sealed with the server key,
 * read back with the project the host reports. Connections go through the outbound guard.
 */
import {
  RetCode,
  type BodyOf,
  type contract,
  type TracingKeysDetail,
  type TracingKeysInfo,
} from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { ApiError, errors } from '../../http/envelope.js';
import { outboundPolicyOf } from '../../net/index.js';
import { maskSecret } from '../../security/secrets.js';
import {
  checkKeys,
  hasTracingKeys,
  loadTracingKeys,
  normalizeHost,
  removeTracingKeys,
  saveTracingKeys,
  type KeyCheck,
  type TracingKeys,
} from '../../tracing/index.js';
import { presentKeys, presentKeysDetail } from './presenter.js';

type SetBody = BodyOf<typeof contract.langfuse.setApiKey>;

export const NO_KEYS_MESSAGE = 'Have not record any tracing keys.';

const blank = (v: string | null) => v === null || v.trim() === '';

function checkHostUrl(host: string): void {
  let ok = false;
  try {
    const url = new URL(host);
    ok = ['http:', 'https:'].includes(url.protocol) && url.hostname !== '';
  } catch {
    ok = false;
  }
  if (!ok) throw errors.exception('`host` must be an http(s) URL.');
  if (host.length > 128) throw errors.exception('`host` must be at most 128 characters.');
}

/** The host's answer as the contract's refusal: unknown keys 102, no answer 105. */
function refusal(check: Exclude<KeyCheck, { ok: true }>, invalidMessage: string): ApiError {
  return check.kind === 'invalid'
    ? errors.data(invalidMessage)
    : new ApiError(RetCode.CONNECTION_ERROR, check.message);
}

export async function setKeys(ctx: AppContext, tenantId: string, body: SetBody): Promise<TracingKeysInfo> {
  if (blank(body.secret_key) || blank(body.public_key) || blank(body.host))
    throw errors.data('Missing required fields');
  const host = normalizeHost(body.host as string);
  checkHostUrl(host);
  const publicKey = (body.public_key as string).trim();
  if (publicKey.length > 2048) throw errors.exception('`public_key` must be at most 2048 characters.');
  let secretKey = (body.secret_key as string).trim();
  // The masked secret sent back unchanged (the settings form) keeps the stored one.
  const stored = await loadTracingKeys(ctx.db, ctx.secrets, tenantId);
  if (stored && secretKey === maskSecret(stored.secretKey)) secretKey = stored.secretKey;

  const keys: TracingKeys = { host, publicKey, secretKey };
  const check = await checkKeys(outboundPolicyOf(ctx.config), keys);
  if (!check.ok) throw refusal(check, 'Invalid tracing keys');
  await saveTracingKeys(ctx.db, ctx.secrets, tenantId, keys);
  return presentKeys(tenantId, keys);
}

/** The stored keys with their project, or null when the tenant has none. */
export async function getKeys(ctx: AppContext, tenantId: string): Promise<TracingKeysDetail | null> {
  const keys = await loadTracingKeys(ctx.db, ctx.secrets, tenantId);
  if (!keys) {
    // A row whose secret cannot be opened (written under another server key) is not usable.
    if (await hasTracingKeys(ctx.db, tenantId)) throw errors.data('Invalid tracing keys loaded');
    return null;
  }
  const check = await checkKeys(outboundPolicyOf(ctx.config), keys);
  if (!check.ok) throw refusal(check, 'Invalid tracing keys loaded');
  return presentKeysDetail(tenantId, keys, check.project);
}

/** Removes the tenant's keys; false when it had none. */
export function deleteKeys(ctx: AppContext, tenantId: string): Promise<boolean> {
  return removeTracingKeys(ctx.db, tenantId);
}

import type { Secrets } from '../security/secrets.js';
import { usesPackedCredentials, type CatalogueFactory } from './catalogue.js';

/**
 * Provider secrets at rest: `tenant_llm.api_key` holds the plain key or the packed JSON credentials
 * (API.md §4), always encrypted with the server key. Nothing here is ever sent back in full.
 */

/** Fields that carry the bearer key for factories whose credentials are packed. */
const KEY_FIELDS = ['api_key', 'ark_api_key', 'spark_api_password'];

export interface OpenedCredentials {
  apiKey: string;
  credentials: Record<string, string>;
}

export function sealSecret(secrets: Secrets, plain: string): string {
  return secrets.encrypt(plain);
}

/** Decrypts a stored api_key column into the key and the credential fields. */
export function openCredentials(secrets: Secrets, stored: string | null): OpenedCredentials {
  if (!stored) return { apiKey: '', credentials: {} };
  let plain: string;
  try {
    plain = secrets.decrypt(stored);
  } catch {
    // Written under another server key (or by hand): unusable rather than fatal.
    return { apiKey: '', credentials: {} };
  }
  return unpack(plain);
}

export function unpack(plain: string): OpenedCredentials {
  if (plain.trim().startsWith('{')) {
    try {
      const obj = JSON.parse(plain) as Record<string, unknown>;
      const credentials = Object.fromEntries(
        Object.entries(obj).map(([k, v]) => [
          k,
          typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v),
        ]),
      );
      const keyField = KEY_FIELDS.find((k) => credentials[k]);
      return { apiKey: keyField ? credentials[keyField] : '', credentials };
    } catch {
      // Not JSON after all: a key that happens to start with "{".
    }
  }
  return { apiKey: plain, credentials: {} };
}

/**
 * The plain text to store for a factory from the request fields: the key itself, or for factories
 * with several credential fields a JSON object of exactly those fields.
 */
export function packCredentials(
  f: CatalogueFactory,
  fields: Record<string, unknown>,
  apiKey: string,
): string {
  if (!usesPackedCredentials(f)) return apiKey;
  // A client may also send the fields already packed in api_key (as the contract's older clients do).
  const fromKey = apiKey.trim().startsWith('{') ? unpack(apiKey).credentials : {};
  const packed: Record<string, string> = {};
  for (const c of f.credentials) {
    const v =
      fields[c.name] ??
      fromKey[c.name] ??
      (c.name === 'api_key' && !apiKey.trim().startsWith('{') ? apiKey : undefined);
    packed[c.name] = v === undefined || v === null ? '' : String(v);
  }
  return JSON.stringify(packed);
}

/** "sk-…abcd": enough to recognise a key, never enough to use it. */
export function maskSecret(value: string): string {
  if (!value) return '';
  if (value.length <= 8) return '…';
  const dash = value.indexOf('-');
  const head = dash > 0 && dash <= 6 ? value.slice(0, dash + 1) : value.slice(0, 2);
  return `${head}…${value.slice(-4)}`;
}

import crypto from 'node:crypto';
import { ModelError, httpError } from '../errors.js';
import { trimSlash, type ModelSpec } from '../spec.js';

/**
 * Google Cloud (Vertex AI) with a service-account key given base64 (SPEC §3): we sign a JWT with the
 * account's private key, trade it at the account's token_uri for an access token (cached until it
 * expires), and call Gemini on Vertex with it. Embeddings use Vertex's :predict shape.
 */
interface ServiceAccount {
  client_email: string;
  private_key: string;
  token_uri: string;
}

const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const tokenCache = new Map<string, { token: string; expiresAt: number }>();

function providerError(message: string): ModelError {
  return new ModelError(`Google Cloud: ${message}`, 'Google Cloud', undefined, false);
}

export function parseServiceAccount(base64: string | undefined): ServiceAccount {
  if (!base64) throw providerError('the service account key is missing');
  let json: unknown;
  try {
    const text = /^\s*\{/.test(base64) ? base64 : Buffer.from(base64, 'base64').toString('utf8');
    json = JSON.parse(text);
  } catch {
    throw providerError('the service account key is not base64-encoded JSON');
  }
  const sa = json as Partial<ServiceAccount>;
  if (!sa.client_email || !sa.private_key)
    throw providerError('the service account key lacks client_email or private_key');
  return {
    client_email: sa.client_email,
    private_key: sa.private_key,
    token_uri: sa.token_uri || 'https://oauth2.googleapis.com/token',
  };
}

function signedAssertion(sa: ServiceAccount): string {
  const now = Math.floor(Date.now() / 1000);
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const unsigned = `${enc({ alg: 'RS256', typ: 'JWT' })}.${enc({ iss: sa.client_email, scope: SCOPE, aud: sa.token_uri, iat: now, exp: now + 3600 })}`;
  let signature: string;
  try {
    signature = crypto.createSign('RSA-SHA256').update(unsigned).sign(sa.private_key, 'base64url');
  } catch {
    throw providerError('the service account private key cannot sign (not a PEM RSA key)');
  }
  return `${unsigned}.${signature}`;
}

export async function vertexAccessToken(
  sa: ServiceAccount,
  signal?: AbortSignal,
  doFetch: typeof fetch = fetch,
): Promise<string> {
  const key = `${sa.client_email}|${sa.token_uri}`;
  const cached = tokenCache.get(key);
  if (cached && cached.expiresAt > Date.now() + 60_000) return cached.token;
  const res = await doFetch(sa.token_uri, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: signedAssertion(sa),
    }),
    signal,
  });
  const text = await res.text();
  if (!res.ok) {
    const e = httpError('Google Cloud', res.status, text);
    throw new ModelError(
      e.message.replace('Google Cloud: ', 'Google Cloud: token request failed: '),
      'Google Cloud',
      res.status,
      e.retryable,
    );
  }
  const body = JSON.parse(text) as { access_token?: string; expires_in?: number };
  if (!body.access_token) throw providerError('the token endpoint answered without an access token');
  tokenCache.set(key, { token: body.access_token, expiresAt: Date.now() + (body.expires_in ?? 3600) * 1000 });
  return body.access_token;
}

/** `https://{region}-aiplatform.googleapis.com/v1/projects/<p>/locations/<r>/publishers/google` */
export function vertexBaseUrl(spec: ModelSpec): string {
  const region = spec.credentials.google_region || 'us-central1';
  const project = spec.credentials.google_project_id;
  if (!project) throw providerError('the project id is missing');
  const host =
    region === 'global' && spec.baseUrl.includes('{region}')
      ? 'https://aiplatform.googleapis.com/v1'
      : trimSlash(spec.baseUrl.replace('{region}', region));
  return `${host}/projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(region)}/publishers/google`;
}

/** A fetch for the Google provider that authenticates with the service account instead of an api key. */
export function vertexFetch(spec: ModelSpec): typeof fetch {
  const sa = parseServiceAccount(spec.credentials.google_service_account_key);
  const doFetch = spec.fetch ?? fetch;
  return async (input, init) => {
    const token = await vertexAccessToken(sa, init?.signal ?? undefined, doFetch);
    const headers = new Headers(init?.headers);
    headers.delete('x-goog-api-key');
    headers.set('authorization', `Bearer ${token}`);
    return doFetch(input, { ...init, headers });
  };
}

/** Vertex text embeddings: POST …/models/<m>:predict {instances:[{content}]}. */
export async function vertexEmbed(
  spec: ModelSpec,
  texts: string[],
  signal: AbortSignal,
): Promise<{ vectors: number[][]; tokens: number }> {
  const res = await vertexFetch(spec)(`${vertexBaseUrl(spec)}/models/${spec.callName}:predict`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ instances: texts.map((content) => ({ content })) }),
    signal,
  });
  const text = await res.text();
  if (!res.ok) throw httpError('Google Cloud', res.status, text, Object.fromEntries(res.headers));
  let body: {
    predictions?: Array<{ embeddings?: { values?: number[]; statistics?: { token_count?: number } } }>;
  };
  try {
    body = JSON.parse(text);
  } catch {
    throw providerError('malformed response from the server');
  }
  const preds = body.predictions ?? [];
  if (preds.length !== texts.length || preds.some((p) => !Array.isArray(p.embeddings?.values))) {
    throw providerError('malformed response from the server');
  }
  return {
    vectors: preds.map((p) => p.embeddings?.values as number[]),
    tokens: preds.reduce((n, p) => n + (p.embeddings?.statistics?.token_count ?? 0), 0),
  };
}

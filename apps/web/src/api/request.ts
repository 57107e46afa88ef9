import { AUTH_TOKEN_LOG_PREVIEW, REQUEST_TIMEOUT_MS, RetCode } from '@lectern/shared';
import i18n from '../i18n';
import { feedback, navigation } from './feedback';
import { clearSession, currentAuthorization } from './storage';

/**
 * The one way the web app talks to the server. It implements SPEC §7 "Rules for every request" and
 * "Handling of answers" and the error catalogue of SPEC §8. It never throws: every outcome is an
 * envelope `{code, message, data}` (code 1999 when no response arrived).
 */

export const API_BASE = '/v1';
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Payload = Record<string, unknown>;

export interface RequestOptions {
  method?: Method;
  /** Body (POST/PUT/DELETE) or query parameters (GET). FormData is sent as-is. */
  data?: Payload | FormData;
  /** Optional extra path segment appended to the url (`/kb/detail` + `abc` → `/kb/detail/abc`). */
  segment?: string;
  /** Send no Authorization header (sign-in, registration, public config). */
  skipToken?: boolean;
  /** Keys copied verbatim instead of being converted to snake case. */
  keepKeys?: readonly string[];
  /** `blob` for binary routes (downloads, images). */
  responseType?: 'json' | 'blob';
  timeoutMs?: number;
  /** Sent as `Idempotency-Key`: repeats of one submit create nothing twice (see submit-once.ts). */
  idempotencyKey?: string;
}

export interface ApiResult<T> {
  code: number;
  message: string;
  data: T | null;
  /** HTTP status; 0 when no response arrived. */
  status: number;
  headers: Headers | null;
}

/** Keys that are never converted: the image-to-text model id must reach the server spelled as it is. */
export const SNAKE_CASE_EXEMPT_KEYS: readonly string[] = ['img2txt_id'];

/** `kbId` → `kb_id`, `pageSize` → `page_size`, `HTTPStatus` → `http_status`; snake keys stay unchanged. */
export function toSnakeCase(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase();
}

/** Converts the top-level keys of a payload to snake case. FormData and exempt keys pass untouched. */
export function snakeCaseKeys<T extends Payload | FormData>(
  payload: T,
  exempt: readonly string[] = SNAKE_CASE_EXEMPT_KEYS,
): T | Payload {
  if (typeof FormData !== 'undefined' && payload instanceof FormData) return payload;
  const out: Payload = {};
  for (const [key, value] of Object.entries(payload)) {
    out[exempt.includes(key) ? key : toSnakeCase(key)] = value;
  }
  return out;
}

/** `/v1` + url + optional segment + query string (GET). */
export function buildUrl(url: string, segment?: string, query?: Payload): string {
  let path =
    url.startsWith('/v1/') || url.startsWith('/api/')
      ? url
      : `${API_BASE}${url.startsWith('/') ? '' : '/'}${url}`;
  if (segment !== undefined && segment !== '')
    path = `${path.replace(/\/$/, '')}/${encodeURIComponent(segment)}`;
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** The first characters of a credential, for logs only (SPEC §9). */
export function tokenPreview(token: string | null): string {
  return token ? `${token.slice(0, AUTH_TOKEN_LOG_PREVIEW)}…` : '(none)';
}

/** The i18n'd meaning of an HTTP status (SPEC §8), or undefined for a status the catalogue does not list. */
export function statusText(status: number): string | undefined {
  const key = `httpStatus.${status}`;
  return i18n.exists(key) ? i18n.t(key) : undefined;
}

export function isUserInfoCall(url: string): boolean {
  return /\/(account\/)?user\/info(\?|$)/.test(url);
}

/** The fallback answer of a request that got no response at all. */
export function networkFailure<T>(): ApiResult<T> {
  return {
    code: RetCode.NETWORK_FAILURE,
    message: i18n.t('message.networkAnomalyDescription'),
    data: null,
    status: 0,
    headers: null,
  };
}

function buildInit(
  method: Method,
  options: RequestOptions,
  signal: AbortSignal,
): { init: RequestInit; query?: Payload } {
  const headers: Record<string, string> = {};
  if (!options.skipToken) {
    const auth = currentAuthorization();
    if (auth) headers.Authorization = auth;
  }
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  const exempt = [...SNAKE_CASE_EXEMPT_KEYS, ...(options.keepKeys ?? [])];
  const payload = options.data === undefined ? undefined : snakeCaseKeys(options.data, exempt);
  if (method === 'GET') {
    return { init: { method, headers, signal }, query: payload instanceof FormData ? undefined : payload };
  }
  let body: BodyInit;
  if (payload instanceof FormData) {
    body = payload;
  } else {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(payload ?? {});
  }
  return { init: { method, headers, body, signal } };
}

/** Shows what SPEC §8 says for an HTTP error status. Returns nothing; the body is handled after. */
function reportHttpStatus(response: Response, url: string, body: { code?: unknown } | null): void {
  if (response.status === 413 || response.status === 504)
    feedback.error(statusText(response.status) ?? response.statusText);
  if (response.ok) return;
  // An HTTP 401 carrying the envelope code 401 is the sign-out case below; one notice is enough.
  if (response.status === 401 && body?.code === RetCode.UNAUTHORIZED) return;
  feedback.notifyError({
    message: `${i18n.t('message.requestError')} ${response.status}: ${response.url || url}`,
    description: statusText(response.status) ?? response.statusText,
  });
}

/** SPEC §7 "Handling of answers" for an envelope. */
function handleEnvelope(url: string, method: Method, code: number, message: string): void {
  if (code === RetCode.SUCCESS) return;
  if (code === RetCode.EXCEPTION_ERROR) {
    feedback.error(message);
    return;
  }
  if (code === RetCode.UNAUTHORIZED) {
    feedback.notifyError({ message, description: message, duration: 3 });
    clearSession();
    navigation.toLogin();
    return;
  }
  const auth = tokenPreview(currentAuthorization());
  if (isUserInfoCall(url)) {
    console.warn(`[api] user info could not be loaded (code ${code}: ${message}); auth ${auth}`);
  } else {
    console.warn(`[api] ${method} ${url} answered code ${code}: ${message}; auth ${auth}`);
  }
}

async function readBody(response: Response, responseType: 'json' | 'blob'): Promise<unknown> {
  if (responseType === 'blob' && response.ok) return response.blob();
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export async function request<T = unknown>(url: string, options: RequestOptions = {}): Promise<ApiResult<T>> {
  const method = options.method ?? 'GET';
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const { init, query } = buildInit(method, options, controller.signal);
  const fullUrl = buildUrl(url, options.segment, query);

  let response: Response;
  try {
    response = await fetch(fullUrl, init);
  } catch (err) {
    clearTimeout(timer);
    const timedOut = controller.signal.aborted;
    console.warn(
      `[api] ${method} ${fullUrl} got no response${timedOut ? ' (timed out)' : ''}: ${String(err)}`,
    );
    feedback.notifyError({
      message: i18n.t('message.networkAnomaly'),
      description: i18n.t(timedOut ? 'message.timeout' : 'message.networkAnomalyDescription'),
    });
    return networkFailure<T>();
  }

  let body: unknown;
  try {
    body = await readBody(response, options.responseType ?? 'json');
  } catch {
    body = null;
  } finally {
    clearTimeout(timer);
  }
  if (body instanceof Blob) {
    return {
      code: RetCode.SUCCESS,
      message: 'success',
      data: body as T,
      status: response.status,
      headers: response.headers,
    };
  }
  const envelope =
    body && typeof body === 'object' && 'code' in body
      ? (body as { code: unknown; message?: unknown; data?: T })
      : null;
  reportHttpStatus(response, fullUrl, envelope);

  if (!envelope || typeof envelope.code !== 'number') {
    // Not an envelope (an HTTP error page, say): reported above when the status was an error.
    const code = response.ok ? RetCode.EXCEPTION_ERROR : response.status;
    return {
      code,
      message: statusText(response.status) ?? response.statusText,
      data: null,
      status: response.status,
      headers: response.headers,
    };
  }
  const message = typeof envelope.message === 'string' ? envelope.message : '';
  handleEnvelope(fullUrl, method, envelope.code, message);
  return {
    code: envelope.code,
    message,
    data: envelope.data ?? null,
    status: response.status,
    headers: response.headers,
  };
}

/** Shorthands used by the hooks files. */
export const api = {
  get: <T>(url: string, options: Omit<RequestOptions, 'method'> = {}) =>
    request<T>(url, { ...options, method: 'GET' }),
  post: <T>(url: string, data?: Payload | FormData, options: Omit<RequestOptions, 'method' | 'data'> = {}) =>
    request<T>(url, { ...options, method: 'POST', data }),
  put: <T>(url: string, data?: Payload | FormData, options: Omit<RequestOptions, 'method' | 'data'> = {}) =>
    request<T>(url, { ...options, method: 'PUT', data }),
  delete: <T>(url: string, options: Omit<RequestOptions, 'method'> = {}) =>
    request<T>(url, { ...options, method: 'DELETE' }),
};

/** Thrown by query functions so TanStack Query sees a failed answer as an error. */
export class ApiFailure extends Error {
  constructor(readonly result: ApiResult<unknown>) {
    super(result.message);
    this.name = 'ApiFailure';
  }
}

/** The data of a successful answer, else an ApiFailure (for query functions). */
export function unwrap<T>(result: ApiResult<T>): T {
  if (result.code !== RetCode.SUCCESS) throw new ApiFailure(result);
  return result.data as T;
}

/** Whether the client already showed this failure to the person (code 100, 401, no response, HTTP error). */
export function alreadyShown(result: ApiResult<unknown>): boolean {
  return (
    result.code === RetCode.EXCEPTION_ERROR ||
    result.code === RetCode.UNAUTHORIZED ||
    result.code === RetCode.NETWORK_FAILURE ||
    result.status >= 400
  );
}

/** Shows a failed answer's message unless the client already showed it (see `alreadyShown`). */
export function showFailure(result: ApiResult<unknown>): void {
  if (!alreadyShown(result)) feedback.error(result.message);
}

import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { REQUEST_TIMEOUT_MS, STORAGE_KEYS } from '@lectern/shared';
import { feedback } from './feedback';
import {
  ApiFailure,
  api,
  buildUrl,
  request,
  snakeCaseKeys,
  SNAKE_CASE_EXEMPT_KEYS,
  statusText,
  toSnakeCase,
  tokenPreview,
  unwrap,
} from './request';
import { captureAuthFromUrl } from './storage';

/** One test per rule of SPEC §7 ("Rules for every request", "Handling of answers") and §8. */

const TOKEN = 'stored-session-token-0123456789';
let fetchMock: Mock<typeof fetch>;
let errorToast: ReturnType<typeof vi.spyOn>;
let notice: ReturnType<typeof vi.spyOn>;
let warn: ReturnType<typeof vi.spyOn>;

function answer(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}
function sent(call = 0): { url: string; init: RequestInit; headers: Record<string, string> } {
  const [url, init] = fetchMock.mock.calls[call] as [string, RequestInit];
  return { url, init, headers: (init.headers ?? {}) as Record<string, string> };
}
/** A page address with an optional `auth` parameter, through the real History API. */
function visit(path: string) {
  window.history.replaceState(null, '', path);
}

beforeEach(() => {
  localStorage.clear();
  visit('/');
  fetchMock = vi.fn<typeof fetch>(async () => answer({ code: 0, message: 'success', data: true }));
  vi.stubGlobal('fetch', fetchMock);
  errorToast = vi.spyOn(feedback, 'error').mockImplementation(() => undefined);
  notice = vi.spyOn(feedback, 'notifyError').mockImplementation(() => undefined);
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('rules for every request', () => {
  it('takes the Authorization credential from the `auth` address parameter before the stored token', async () => {
    localStorage.setItem(STORAGE_KEYS.authorization, TOKEN);
    visit('/chat?auth=from-the-address');
    await api.get('/user/info');
    expect(sent().headers.Authorization).toBe('from-the-address');
  });

  it('otherwise sends the stored token, raw, without a scheme', async () => {
    localStorage.setItem(STORAGE_KEYS.authorization, TOKEN);
    await api.get('/user/info');
    expect(sent().headers.Authorization).toBe(TOKEN);
  });

  it('sends no Authorization header when skip-token is set', async () => {
    localStorage.setItem(STORAGE_KEYS.authorization, TOKEN);
    visit('/?auth=abc');
    await api.post('/user/login', { email: 'a@b.co', password: 'x' }, { skipToken: true });
    expect(sent().headers.Authorization).toBeUndefined();
  });

  it('converts payload keys to snake case, in bodies and in query parameters', async () => {
    expect(toSnakeCase('kbId')).toBe('kb_id');
    expect(toSnakeCase('similarityThreshold')).toBe('similarity_threshold');
    expect(toSnakeCase('page_size')).toBe('page_size');
    await api.post('/kb/create', { kbName: 'x', parserId: 'naive' });
    expect(JSON.parse(String(sent().init.body))).toEqual({ kb_name: 'x', parser_id: 'naive' });
    await api.get('/kb/list', { data: { pageSize: 10, orderBy: 'create_time' } });
    expect(sent(1).url).toBe('/v1/kb/list?page_size=10&order_by=create_time');
  });

  it('sends form data untouched (no key conversion, no JSON content type)', async () => {
    const form = new FormData();
    form.append('kbId', 'k1');
    await api.post('/document/upload', form);
    const { init, headers } = sent();
    expect(init.body).toBe(form);
    expect((init.body as FormData).get('kbId')).toBe('k1');
    expect(headers['Content-Type']).toBeUndefined();
  });

  it('exempts the image-to-text model id key, and any key the caller names, from conversion', async () => {
    expect(SNAKE_CASE_EXEMPT_KEYS).toContain('img2txt_id');
    expect(snakeCaseKeys({ img2txt_id: 'm@f', llmId: 'c@f' })).toEqual({ img2txt_id: 'm@f', llm_id: 'c@f' });
    expect(snakeCaseKeys({ img2txtId: 'm@f' }, ['img2txtId'])).toEqual({ img2txtId: 'm@f' });
    await api.post(
      '/user/set_tenant_info',
      { img2txt_id: 'v@f', embdId: 'e@f', keepMe: 1 },
      { keepKeys: ['keepMe'] },
    );
    expect(JSON.parse(String(sent().init.body))).toEqual({ img2txt_id: 'v@f', embd_id: 'e@f', keepMe: 1 });
  });

  it('sends a body with POST, PUT and DELETE, and query parameters with GET', async () => {
    await api.post('/a', { x: 1 });
    await api.put('/b', { x: 2 });
    await api.delete('/c', { data: { x: 3 } });
    await api.get('/d', { data: { x: 4, skip: undefined } });
    expect(sent(0).init).toMatchObject({ method: 'POST', body: '{"x":1}' });
    expect(sent(1).init).toMatchObject({ method: 'PUT', body: '{"x":2}' });
    expect(sent(2).init).toMatchObject({ method: 'DELETE', body: '{"x":3}' });
    expect(sent(0).headers['Content-Type']).toBe('application/json');
    expect(sent(3).init.method).toBe('GET');
    expect(sent(3).init.body).toBeUndefined();
    expect(sent(3).url).toBe('/v1/d?x=4');
  });

  it('appends an optional extra path segment', async () => {
    await api.delete('/system/token', { segment: 'lectern-abc/def' });
    expect(sent().url).toBe('/v1/system/token/lectern-abc%2Fdef');
    expect(buildUrl('/kb/detail', '')).toBe('/v1/kb/detail');
  });

  it('gives up after 300000 ms and answers the no-response fallback', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementation(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = request('/slow');
    const signal = sent().init.signal as AbortSignal;
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(REQUEST_TIMEOUT_MS).toBe(300_000);
    expect(signal.aborted).toBe(true);
    expect((await pending).code).toBe(1999);
  });
});

describe('handling of answers', () => {
  it('treats code 0 as success and shows nothing', async () => {
    fetchMock.mockResolvedValueOnce(
      answer({ code: 0, message: 'success', data: { id: 'u1' } }, 200, { Authorization: 'tok' }),
    );
    const result = await api.get<{ id: string }>('/user/info');
    expect(result).toMatchObject({ code: 0, data: { id: 'u1' }, status: 200 });
    expect(result.headers?.get('Authorization')).toBe('tok');
    expect(unwrap(result)).toEqual({ id: 'u1' });
    expect(errorToast).not.toHaveBeenCalled();
    expect(notice).not.toHaveBeenCalled();
  });

  it('shows the body message for code 100', async () => {
    fetchMock.mockResolvedValueOnce(answer({ code: 100, message: 'Update failure!', data: false }));
    const result = await api.post('/user/setting', { nickname: 'x' });
    expect(result.code).toBe(100);
    expect(errorToast).toHaveBeenCalledWith('Update failure!');
    expect(() => unwrap(result)).toThrow(ApiFailure);
  });

  it('on code 401 notifies for 3 s, clears the stored credentials (keeping lng) and goes to /login', async () => {
    const location = { href: 'http://localhost/chat', search: '' };
    vi.stubGlobal('location', location);
    localStorage.setItem(STORAGE_KEYS.authorization, TOKEN);
    localStorage.setItem(STORAGE_KEYS.token, TOKEN);
    localStorage.setItem(STORAGE_KEYS.userInfo, '{"id":"u1"}');
    localStorage.setItem(STORAGE_KEYS.language, 'de');
    const body = { code: 401, message: "<Unauthorized '401: Unauthorized'>", data: null };
    fetchMock.mockResolvedValueOnce(answer(body, 401));
    await api.get('/kb/list');
    expect(notice).toHaveBeenCalledTimes(1);
    expect(notice).toHaveBeenCalledWith({ message: body.message, description: body.message, duration: 3 });
    expect(localStorage.getItem(STORAGE_KEYS.authorization)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.userInfo)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.language)).toBe('de');
    expect(location.href).toBe('/login');
  });

  it('only logs other codes', async () => {
    fetchMock.mockResolvedValueOnce(answer({ code: 102, message: 'Tenant not found!', data: false }));
    const result = await api.post('/system/new_token');
    expect(result).toMatchObject({ code: 102, message: 'Tenant not found!' });
    expect(errorToast).not.toHaveBeenCalled();
    expect(notice).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('POST /v1/system/new_token answered code 102: Tenant not found!'),
    );
  });

  it('logs the user-info call separately', async () => {
    fetchMock.mockResolvedValueOnce(answer({ code: 109, message: 'No authorization.', data: false }));
    await api.get('/user/info');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(
      /^\[api\] user info could not be loaded \(code 109: No authorization\.\)/,
    );
    expect(notice).not.toHaveBeenCalled();
  });

  it('answers code 1999 when no response arrives, and says the network is abnormal', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const result = await api.get('/system/version');
    expect(result).toEqual({
      code: 1999,
      message: 'The network is abnormal and the server cannot be reached.',
      data: null,
      status: 0,
      headers: null,
    });
    expect(notice).toHaveBeenCalledWith({
      message: 'Network anomaly',
      description: 'The network is abnormal and the server cannot be reached.',
    });
  });

  it('logs the credential only as its first 10 characters', async () => {
    localStorage.setItem(STORAGE_KEYS.authorization, TOKEN);
    fetchMock.mockResolvedValueOnce(answer({ code: 102, message: 'nope', data: false }));
    await api.get('/kb/detail');
    const line = String(warn.mock.calls[0][0]);
    expect(line).toContain(`auth ${TOKEN.slice(0, 10)}…`);
    expect(line).not.toContain(TOKEN.slice(0, 11));
    expect(tokenPreview(null)).toBe('(none)');
  });
});

describe('error catalogue (SPEC §8)', () => {
  it("shows 'request error {status}: {url}' with the status text for an HTTP error", async () => {
    fetchMock.mockResolvedValueOnce(answer({ code: 404, message: 'Not Found: /v1/nope', data: null }, 404));
    const result = await api.get('/nope');
    expect(result.status).toBe(404);
    expect(notice).toHaveBeenCalledWith({
      message: 'request error 404: /v1/nope',
      description: 'The requested record does not exist.',
    });
  });

  it('shows the mapped messages of 413 and 504', async () => {
    fetchMock.mockResolvedValueOnce(
      answer({ code: 400, message: 'Request body too large', data: null }, 413),
    );
    await api.post('/document/upload', new FormData());
    expect(errorToast).toHaveBeenCalledWith('The total size of the upload is too large.');
    fetchMock.mockResolvedValueOnce(new Response('<html>gateway</html>', { status: 504 }));
    const result = await api.get('/kb/list');
    expect(errorToast).toHaveBeenLastCalledWith('Gateway timeout.');
    expect(result).toMatchObject({ code: 504, status: 504, data: null });
    expect(notice).toHaveBeenLastCalledWith({
      message: 'request error 504: /v1/kb/list',
      description: 'Gateway timeout.',
    });
  });

  it('has an i18n status text for each listed status and none for others', () => {
    expect(statusText(401)).toMatch(/sign in again/);
    expect(statusText(418)).toBeUndefined();
  });
});

describe('credential in the page address', () => {
  it('stores the `auth` parameter as the session and strips it from the URL', () => {
    visit('/knowledge?auth=tok-123&tab=files#top');
    expect(captureAuthFromUrl()).toBe(true);
    expect(localStorage.getItem(STORAGE_KEYS.authorization)).toBe('tok-123');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('tok-123');
    expect(window.location.pathname + window.location.search + window.location.hash).toBe(
      '/knowledge?tab=files#top',
    );
    expect(captureAuthFromUrl()).toBe(false);
  });
});

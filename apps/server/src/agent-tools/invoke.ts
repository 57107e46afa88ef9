/**
 * Invoke (AGENTS.md §6.14): an HTTP call configured on the node — URL with inline references, method,
 * headers (a JSON object as text), variables sent as the query string (GET) or as a JSON / form body
 * (POST, PUT), a timeout, optional HTML cleaning. Through the outbound guard: a private or loopback
 * target is refused before anything is sent (unless LECTERN_SSRF_ALLOW names it). The RAGFlow quirks
 * (null proxy crash, clean_html failing on POST, 3 s cap) are not reproduced.
 */
import type { ToolComponent, ToolInvocation, ToolMeta } from '@lectern/agent-core';
import type { ToolDeps } from './context.js';
import { callService } from './common/http.js';
import { htmlToText, looksLikeHtml } from './common/html.js';
import { bool, errorText, int, settled, text } from './common/values.js';

const META: ToolMeta = {
  name: 'invoke',
  description: 'Sends the HTTP request configured on this component and returns the response body.',
  parameters: {},
};

const METHODS = new Set(['get', 'post', 'put', 'delete', 'patch']);

interface Variable {
  key?: string;
  ref?: string;
  value?: unknown;
}

function parseHeaders(raw: unknown): Record<string, unknown> {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) return raw as Record<string, unknown>;
  const s = text(raw).trim();
  if (!s) return {};
  let v: unknown;
  try {
    v = JSON.parse(s);
  } catch {
    throw new Error('Invoke: `headers` must be a JSON object, e.g. {"Accept": "application/json"}.');
  }
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw new Error('Invoke: `headers` must be a JSON object, e.g. {"Accept": "application/json"}.');
  return v as Record<string, unknown>;
}

async function variablesOf(call: ToolInvocation): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const vars = Array.isArray(call.params.variables) ? (call.params.variables as Variable[]) : [];
  for (const v of vars) {
    const key = text(v.key).trim();
    if (!key) continue;
    const literal = text(v.value);
    out[key] =
      literal !== '' ? literal : text(v.ref).trim() ? await settled(await call.resolve(text(v.ref))) : '';
  }
  return out;
}

function asField(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v ?? '');
}

export function invokeTool(deps: ToolDeps): ToolComponent {
  return {
    componentName: 'Invoke',
    meta: () => META,
    check(params) {
      const reasons: string[] = [];
      if (!text(params.url).trim()) reasons.push('`url` is required');
      if (params.method !== undefined && !METHODS.has(text(params.method).toLowerCase()))
        reasons.push('`method` must be GET, POST or PUT');
      if (params.timeout !== undefined && int(params.timeout, 0) <= 0)
        reasons.push('`timeout` must be a positive integer');
      return reasons;
    },
    async invoke(call) {
      let url = (await call.render(text(call.params.url))).trim();
      if (!url) throw new Error('Invoke: `url` is required.');
      if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) url = `http://${url}`;
      const method = text(call.params.method || 'get').toLowerCase();
      if (!METHODS.has(method)) throw new Error(`Invoke: unsupported method ${method.toUpperCase()}.`);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(parseHeaders(call.params.headers)))
        if (k.trim()) headers[k] = await call.render(text(v));
      const vars = await variablesOf(call);
      const timeoutMs = Math.min(int(call.params.timeout, 60), 600) * 1000;
      if (text(call.params.proxy).trim())
        call.logger.warn('Invoke: `proxy` is not supported; the request goes out through the outbound guard');
      let body: string | undefined;
      if (method === 'get' || method === 'delete') {
        const u = new URL(url);
        for (const [k, v] of Object.entries(vars)) u.searchParams.set(k, asField(v));
        url = u.toString();
      } else if (text(call.params.datatype || 'json').toLowerCase() === 'formdata') {
        body = new URLSearchParams(
          Object.entries(vars).map(([k, v]): [string, string] => [k, asField(v)]),
        ).toString();
        headers['Content-Type'] ??= 'application/x-www-form-urlencoded';
      } else {
        body = JSON.stringify(vars);
        if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
          headers['Content-Type'] = 'application/json';
      }
      const attempts = Math.max(0, int(call.params.max_retries, 0)) + 1;
      let last: unknown;
      for (let i = 0; i < attempts; i++) {
        try {
          const answer = await callService(deps, url, {
            method: method.toUpperCase(),
            headers,
            body,
            timeoutMs: deps.timeoutMs ? Math.min(deps.timeoutMs, timeoutMs) : timeoutMs,
            signal: call.signal,
            maxBytes: 10 * 1024 * 1024,
          });
          const result =
            bool(call.params.clean_html, false) &&
            looksLikeHtml(answer.headers.get('content-type'), answer.text)
              ? htmlToText(answer.text)
              : answer.text;
          call.setOutput('result', result);
          return result;
        } catch (err) {
          if (call.signal.aborted) throw err;
          last = err;
          if (i + 1 < attempts)
            await call.sleep(Math.max(0, Number(call.params.delay_after_error ?? 2) || 0) * 1000);
        }
      }
      throw new Error(`Invoke: ${errorText(last)}`);
    },
  };
}

/**
 * Data and translation tools that were legacy in RAGFlow v0.24.0 (AGENTS.md §10.20), rebuilt on the
 * current tool interface: DeepL translation and TuShare news. Their text goes to `formalized_content`.
 */
import type { ToolComponent } from '@lectern/agent-core';
import { baseUrl, type ToolDeps } from '../context.js';
import { callService, jsonOf, ServiceError } from '../common/http.js';
import { markdownTable } from '../common/markdown.js';
import { serviceTool } from '../common/service-tool.js';
import { text } from '../common/values.js';

type Json = Record<string, unknown>;

export function deeplTool(deps: ToolDeps): ToolComponent {
  return serviceTool(
    {
      componentName: 'DeepL',
      label: 'DeepL',
      primary: 'query',
      timeoutSeconds: 12,
      meta: {
        name: 'deepl_translate',
        description: 'Translates a text with DeepL.',
        parameters: {
          query: {
            type: 'string',
            description: 'The text to translate.',
            default: '{sys.query}',
            required: true,
          },
        },
      },
      check: (p) => (text(p.auth_key).trim() ? [] : ['`auth_key` is required']),
      async run(c) {
        const key = text(c.params.auth_key).trim();
        // Free-plan keys end in ":fx" and use the free host.
        const fallback = key.endsWith(':fx') ? 'https://api-free.deepl.com' : 'https://api.deepl.com';
        const source = text(c.params.source_lang || 'ZH');
        const answer = await callService(
          c.deps,
          `${baseUrl(c.deps, 'LECTERN_DEEPL_BASE_URL', fallback)}/v2/translate`,
          {
            method: 'POST',
            headers: { Authorization: `DeepL-Auth-Key ${key}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({
              text: [c.query],
              target_lang: text(c.params.target_lang || 'EN-GB'),
              ...(source && source.toLowerCase() !== 'auto' ? { source_lang: source } : {}),
            }),
            timeoutMs: c.timeoutMs,
            signal: c.signal,
          },
        );
        const body = jsonOf<Json>(answer, (b) => text((b as Json).message) || undefined);
        const translated = ((body.translations as Json[] | undefined) ?? [])
          .map((t) => text(t.text))
          .join('\n');
        return { outputs: { formalized_content: translated }, result: translated };
      },
    },
    deps,
  );
}

export function tushareTool(deps: ToolDeps): ToolComponent {
  return serviceTool(
    {
      componentName: 'TuShare',
      label: 'TuShare',
      primary: 'query',
      timeoutSeconds: 12,
      meta: {
        name: 'tushare_news',
        description: 'Finance news from TuShare whose content contains the keyword.',
        parameters: {
          query: {
            type: 'string',
            description: 'The keyword to look for in the news.',
            default: '{sys.query}',
            required: true,
          },
        },
      },
      check: (p) => (text(p.token).trim() ? [] : ['`token` is required']),
      async run(c) {
        const answer = await callService(
          c.deps,
          baseUrl(c.deps, 'LECTERN_TUSHARE_BASE_URL', 'http://api.tushare.pro'),
          {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({
              api_name: 'news',
              token: text(c.params.token),
              params: {
                src: text(c.params.src || 'eastmoney'),
                start_date: text(c.params.start_date || '2024-01-01 09:00:00'),
                end_date: text(c.params.end_date) || new Date().toISOString().slice(0, 19).replace('T', ' '),
              },
            }),
            timeoutMs: c.timeoutMs,
            signal: c.signal,
          },
        );
        const body = jsonOf<Json>(answer);
        if (body.code !== 0) throw new ServiceError(text(body.msg) || `code ${text(body.code)}`);
        const data = (body.data ?? {}) as { fields?: string[]; items?: unknown[][] };
        const fields = data.fields ?? [];
        const rows = (data.items ?? [])
          .map((item) => Object.fromEntries(fields.map((f, i) => [f, item[i]])))
          .filter((r) => text(r.content).includes(c.query));
        const table = rows.length ? markdownTable(rows) : '';
        return { outputs: { formalized_content: table, json: rows }, result: table };
      },
    },
    deps,
  );
}

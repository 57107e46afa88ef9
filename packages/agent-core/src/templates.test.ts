/**
 * Every template of `templates/` is a valid row, validates, and runs end to end with a scripted fake
 * model, fake retrieval and fake tools — each tool it configures called at least once.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogueEntry, loadDsl, runCanvas, validateDsl } from './index.js';
import { loadTemplates, TEMPLATE_FILES } from './templates.js';
import type { ChatRequest } from './ports.js';
import type { RunEvent } from './runtime/events.js';
import { chunk, fakePorts, FakeRetrieval, fakeTool, toolPort, type Turn } from '../test/fakes.js';
import { answerText, collect } from '../test/helpers.js';

const str = (description: string, required = true) => ({ type: 'string', description, required });

function tools() {
  return [
    fakeTool('TavilySearch', 'tavily_search', (a) => `web: ${String(a.query)}`),
    fakeTool(
      'TavilyExtract',
      'tavily_extract',
      (a) => [{ url: String(a.urls), raw_content: '# Page' }],
      { urls: { type: 'array', description: 'URLs', required: true } },
      'json',
    ),
    fakeTool('DuckDuckGo', 'duckduckgo_search', (a) => `ddg: ${String(a.query)}`),
    fakeTool('Wikipedia', 'wikipedia_search', (a) => `wiki: ${String(a.query)}`),
    fakeTool('ExeSQL', 'execute_sql', (a) => `| n |\n|---|\n| 42 | (${String(a.sql)})`, { sql: str('SQL') }),
    fakeTool(
      'YahooFinance',
      'yahoo_finance',
      (a) => `ACME (${String(a.stock_code)}): revenue up 8%`,
      { stock_code: str('ticker') },
      'report',
    ),
    fakeTool(
      'Email',
      'email',
      () => true,
      {
        to_email: str('to'),
        cc_email: str('cc', false),
        subject: str('subject', false),
        content: str('body', false),
      },
      'success',
    ),
  ];
}

/** A model that behaves plausibly for any template: calls each offered tool once, then answers. */
function model(req: ChatRequest): Turn {
  const sys = req.messages[0]?.role === 'system' ? req.messages[0].content : '';
  const last = req.messages.at(-1)!;
  if (sys.includes('intent classifier')) return { text: /# Categories\n- (\S+)/.exec(sys)![1] };
  if (req.json) {
    const schema = JSON.parse(sys.slice(sys.indexOf('{', sys.indexOf('JSON schema'))).trim()) as {
      properties: Record<string, unknown>;
    };
    return {
      text: JSON.stringify(
        Object.fromEntries(Object.keys(schema.properties).map((k) => [k, `${k} of the text`])),
      ),
    };
  }
  if (req.tools && !req.messages.some((m) => m.role === 'tool')) {
    return {
      toolCalls: req.tools.map((t) => {
        const props = (t.parameters.properties ?? {}) as Record<string, { type: string }>;
        return {
          name: t.name,
          arguments: Object.fromEntries(
            Object.entries(props).map(([k, p]) => [
              k,
              p.type === 'array' ? ['https://example.com'] : `${k} value`,
            ]),
          ),
        };
      }),
    };
  }
  if (sys.includes('reply with APPROVED')) return { text: 'APPROVED' };
  if (sys.includes('SQL query')) return { text: 'SELECT COUNT(*) AS n FROM orders LIMIT 100' };
  return { text: ['Here is the answer', ` to: ${last.content.slice(0, 30)}`] };
}

function beginInputs(params: Record<string, unknown>): Record<string, unknown> {
  const defs = (params.inputs ?? {}) as Record<string, { type: string; options?: string[] }>;
  return Object.fromEntries(
    Object.entries(defs).map(([k, d]) => {
      const value =
        d.type === 'file'
          ? [{ id: 'f1', name: 'doc.md', mime_type: 'text/markdown' }]
          : d.type === 'integer'
            ? 3
            : d.type === 'options'
              ? d.options?.[0]
              : d.type === 'line' && k.includes('recipient')
                ? 'ops@example.com'
                : `${k} text`;
      return [k, { ...d, value }];
    }),
  );
}

function errors(events: RunEvent[]): string[] {
  return events.flatMap((e) =>
    !('event' in e)
      ? [e.message]
      : e.event === 'node_finished' && e.data.error
        ? [`${e.data.component_id}: ${e.data.error}`]
        : [],
  );
}

function configuredTools(dsl: ReturnType<typeof loadDsl>): string[] {
  const names = new Set<string>();
  const walk = (params: Record<string, unknown>) => {
    for (const t of (params.tools as
      { component_name: string; params: Record<string, unknown> }[] | undefined) ?? []) {
      if (t.component_name === 'Agent') walk(t.params);
      else if (t.component_name !== 'Retrieval') names.add(t.component_name);
    }
  };
  for (const c of Object.values(dsl.components)) {
    if (catalogueEntry(c.obj.component_name)?.implementedBy === 'host') names.add(c.obj.component_name);
    walk(c.obj.params);
  }
  return [...names].sort();
}

describe('templates', () => {
  it('ships at least 15 templates, every file listed and parsed, titled in en and zh', () => {
    const files = readdirSync(new URL('../templates/', import.meta.url)).filter((f) => f.endsWith('.json'));
    expect([...TEMPLATE_FILES].sort()).toEqual(files.map((f) => f.replace(/\.json$/, '')).sort());
    const rows = loadTemplates();
    expect(rows.length).toBeGreaterThanOrEqual(15);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    for (const r of rows) {
      expect(r.title.en && r.title.zh && r.description.en && r.description.zh, String(r.id)).toBeTruthy();
    }
  });

  for (const row of loadTemplates()) {
    it(`${row.title.en}: validates and runs end to end`, async () => {
      const dsl = loadDsl(row.dsl);
      expect(validateDsl(dsl)).toEqual([]);
      for (const n of dsl.graph!.nodes) {
        if (dsl.components[n.id])
          expect(n.type, n.id).toBe(catalogueEntry(dsl.components[n.id].obj.component_name)!.nodeType);
      }
      const host = tools();
      const ports = fakePorts(model, {
        tools: toolPort(...host),
        retrieval: new FakeRetrieval([
          chunk('c1', 'Relevant passage one.'),
          chunk('c2', 'Relevant passage two.', 'guide.md'),
        ]),
      });
      // What a user does first: pick the datasets to search.
      const chosen = structuredClone(row.dsl);
      const pick = (params: Record<string, unknown>) => {
        if (Array.isArray(params.kb_ids) && params.kb_ids.length === 0) params.kb_ids = ['kb1'];
        for (const t of (params.tools as { params: Record<string, unknown> }[] | undefined) ?? [])
          pick(t.params);
      };
      for (const c of Object.values(chosen.components)) pick(c.obj.params);
      const begin = dsl.components.begin.obj.params;
      let run = runCanvas({
        dsl: chosen,
        query: 'How do I get started?',
        inputs: beginInputs(begin),
        files: [],
        taskId: 'tpl',
        ports,
      });
      let events = await collect(run);
      let outcome = await run.outcome;
      if (outcome.status === 'paused') {
        const ask = events.at(-1)!;
        expect('event' in ask && ask.event).toBe('user_inputs');
        const forms = ('event' in ask && ask.event === 'user_inputs' ? ask.data.inputs : {}) as Record<
          string,
          Record<string, unknown>
        >;
        run = runCanvas({
          dsl: run.dsl,
          query: '',
          inputs: beginInputs({ inputs: forms }),
          taskId: 'tpl',
          ports,
        });
        events = await collect(run);
        outcome = await run.outcome;
      }
      expect(errors(events)).toEqual([]);
      expect(outcome.status).toBe('finished');
      expect(answerText(events).trim().length).toBeGreaterThan(0);
      const called = host
        .filter((t) => t.calls.length > 0)
        .map((t) => t.componentName)
        .sort();
      expect(called).toEqual(configuredTools(dsl));
    });
  }
});

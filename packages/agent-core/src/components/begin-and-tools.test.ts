/** Begin inputs (§5), a host tool component on the canvas (§10.1), and single-component debug. */
import { describe, expect, it } from 'vitest';
import { debugComponent } from '../runtime/debug.js';
import { runCanvas } from '../runtime/run-canvas.js';
import { collect, dsl, finished } from '../../test/helpers.js';
import { fakePorts, fakeTool, toolPort } from '../../test/fakes.js';

describe('Begin', () => {
  const d = dsl([
    {
      id: 'begin',
      name: 'begin',
      params: {
        mode: 'task',
        inputs: {
          title: { name: 'Title', type: 'line' },
          count: { name: 'Count', type: 'integer' },
          ok: { name: 'OK', type: 'boolean' },
          doc: { name: 'Doc', type: 'file', optional: true },
          pic: { name: 'Pic', type: 'file' },
          unsent: { name: 'Unsent', type: 'line' },
        },
      },
      downstream: ['Message:M'],
    },
    {
      id: 'Message:M',
      name: 'M',
      params: { content: ['{begin@title}|{begin@count}|{begin@ok}|{begin@pic}|{begin@unsent}|{begin@doc}'] },
    },
  ]);

  it('turns each input into an output (files through storage) and records them as inputs', async () => {
    const events = await collect(
      runCanvas({
        dsl: d,
        inputs: {
          title: { type: 'line', value: 'Hi' },
          count: { type: 'integer', value: '3' },
          ok: { type: 'boolean', value: true },
          doc: { type: 'file', optional: true, value: null },
          pic: {
            type: 'file',
            value: [
              { id: 'f', name: 'a.png', mime_type: 'image/png' },
              { id: 'g', name: 'b.pdf', mime_type: 'application/pdf' },
            ],
          },
          extra: { type: 'line', value: 'kept' },
        },
        taskId: 't',
        ports: fakePorts([]),
      }),
    );
    const b = finished(events, 'begin');
    expect(b.outputs).toMatchObject({
      title: 'Hi',
      count: 3,
      ok: true,
      doc: null,
      pic: ['data:image/png;base64,AAAA', 'text of b.pdf'],
      extra: 'kept',
    });
    expect(b.inputs).toEqual({
      title: 'Hi',
      count: 3,
      ok: true,
      doc: null,
      pic: ['data:image/png;base64,AAAA', 'text of b.pdf'],
      extra: 'kept',
    });
    expect(finished(events, 'Message:M').outputs.content).toBe(
      'Hi|3|true|["data:image/png;base64,AAAA", "text of b.pdf"]||',
    );
  });

  it('a bare value instead of an input object is a Begin error that stops the run', async () => {
    const events = await collect(
      runCanvas({ dsl: d, inputs: { title: 'bare' }, taskId: 't', ports: fakePorts([]) }),
    );
    expect(finished(events, 'begin').error).toBe(
      "Input 'title' must be an object {type, value}, got a bare value",
    );
  });
});

describe('host tool component on the canvas', () => {
  it('resolves whole-string references into its arguments and sets its outputs', async () => {
    const tool = fakeTool('TavilySearch', 'tavily_search', (args) => `found ${String(args.query)}`);
    const d = dsl([
      { id: 'begin', name: 'begin', downstream: ['TavilySearch:T'] },
      {
        id: 'TavilySearch:T',
        name: 'Web',
        params: { query: '{sys.query}', api_key: 'k' },
        downstream: ['Message:M'],
      },
      { id: 'Message:M', name: 'M', params: { content: ['{TavilySearch:T@formalized_content}'] } },
    ]);
    const events = await collect(
      runCanvas({ dsl: d, query: 'lectern', taskId: 't', ports: fakePorts([], { tools: toolPort(tool) }) }),
    );
    expect(tool.calls).toEqual([{ query: 'lectern' }]);
    expect(finished(events, 'Message:M').outputs.content).toBe('found lectern');
  });

  it("refuses to run when the host tool's check fails, naming the component", () => {
    const email = {
      ...fakeTool('Email', 'email', () => true),
      check: (p: Record<string, unknown>) => (p.smtp_server ? [] : ['SMTP server is required']),
    };
    const d = dsl([
      { id: 'begin', name: 'begin', downstream: ['Email:E', 'Agent:A'] },
      { id: 'Email:E', name: 'Notify', params: { to_email: 'a@b.c' } },
      {
        id: 'Agent:A',
        name: 'Mailer',
        params: { llm_id: 'm@F', tools: [{ component_name: 'Email', name: 'Email', params: {} }] },
      },
    ]);
    expect(() =>
      runCanvas({ dsl: d, query: 'q', taskId: 't', ports: fakePorts([], { tools: toolPort(email) }) }),
    ).toThrow('Notify: SMTP server is required\nMailer: Email configuration error: SMTP server is required');
  });

  it('errors clearly when the host registered no implementation', async () => {
    const d = dsl([
      { id: 'begin', name: 'begin', downstream: ['ExeSQL:X'] },
      { id: 'ExeSQL:X', name: 'SQL', params: {} },
    ]);
    const events = await collect(runCanvas({ dsl: d, query: 'q', taskId: 't', ports: fakePorts([]) }));
    expect(finished(events, 'ExeSQL:X').error).toBe(
      'No implementation is registered for the tool component "ExeSQL"',
    );
  });
});

describe('debugComponent', () => {
  it('runs one component with given values for its references and returns its outputs', async () => {
    const d = dsl([
      { id: 'begin', name: 'begin', downstream: ['LLM:A'] },
      {
        id: 'LLM:A',
        name: 'A',
        params: { llm_id: 'm@F', prompts: [{ role: 'user', content: 'Translate {begin@text}' }] },
        downstream: ['Message:M'],
      },
      { id: 'Message:M', name: 'M', params: { content: ['{LLM:A@content}'] } },
    ]);
    (d.components.begin as { obj: { params: Record<string, unknown> } }).obj.params.inputs = {
      text: { type: 'line' },
    };
    const ports = fakePorts([{ text: ['Hallo', ' Welt'] }]);
    const out = await debugComponent({
      dsl: d,
      componentId: 'LLM:A',
      params: { 'begin@text': { value: 'hello world' } },
      ports,
    });
    expect(out.content).toBe('Hallo Welt');
    expect(ports.models.requests[0].messages.at(-1)).toEqual({
      role: 'user',
      content: 'Translate hello world',
    });
  });
});

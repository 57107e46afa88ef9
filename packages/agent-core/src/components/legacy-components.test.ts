/** Components kept for older DSLs: Template, RewriteQuestion, KeywordExtract, Concentrator (§8). */
import { describe, expect, it } from 'vitest';
import { runCanvas } from '../runtime/run-canvas.js';
import { collect, dsl, finished, trail } from '../../test/helpers.js';
import { fakePorts } from '../../test/fakes.js';

describe('Template', () => {
  it('renders Jinja2 with named parameters bound to component outputs and {refs}', async () => {
    const d = dsl([
      { id: 'begin', name: 'begin', downstream: ['LLM:A'] },
      { id: 'LLM:A', name: 'A', params: { llm_id: 'm@F' }, downstream: ['Template:T'] },
      {
        id: 'Template:T',
        name: 'Layout',
        params: {
          content: '{% if answer %}Answer: {answer}{% endif %} (asked: {sys.query}) {{ answer | upper }}',
          parameters: [{ key: 'answer', component_id: 'LLM:A' }],
        },
      },
    ]);
    const events = await collect(
      runCanvas({ dsl: d, query: 'why?', taskId: 't', ports: fakePorts([{ text: 'because' }]) }),
    );
    expect(finished(events, 'Template:T').outputs.content).toBe('Answer: because (asked: why?) BECAUSE');
  });
});

describe('RewriteQuestion', () => {
  const flow = (history: unknown[]) =>
    dsl(
      [
        { id: 'begin', name: 'begin', downstream: ['RewriteQuestion:R'] },
        { id: 'RewriteQuestion:R', name: 'Rewrite', params: { llm_id: 'm@F', language: 'English' } },
      ],
      { history },
    );

  it('rewrites the question with the recent conversation into a standalone one', async () => {
    const ports = fakePorts([{ text: 'How much does the Pro plan cost per year?' }]);
    const events = await collect(
      runCanvas({
        dsl: flow([
          ['user', 'Tell me about the Pro plan'],
          ['assistant', { content: 'It has SSO.' }],
        ]),
        query: 'and per year?',
        taskId: 't',
        ports,
      }),
    );
    expect(finished(events, 'RewriteQuestion:R').outputs.content).toBe(
      'How much does the Pro plan cost per year?',
    );
    const [sys, user] = ports.models.requests[0].messages;
    expect(sys.content).toContain('Write the question in English.');
    expect(user.content).toBe(
      'Conversation:\nUSER: Tell me about the Pro plan\nASSISTANT: It has SSO.\n\nLatest question: and per year?',
    );
  });

  it('returns the question unchanged on the first turn without calling the model', async () => {
    const ports = fakePorts([]);
    const events = await collect(runCanvas({ dsl: flow([]), query: 'first question', taskId: 't', ports }));
    expect(finished(events, 'RewriteQuestion:R').outputs.content).toBe('first question');
    expect(ports.models.requests).toHaveLength(0);
  });
});

describe('KeywordExtract', () => {
  it('keeps the top_n keywords of the answer', async () => {
    const d = dsl([
      { id: 'begin', name: 'begin', downstream: ['KeywordExtract:K'] },
      { id: 'KeywordExtract:K', name: 'Keywords', params: { llm_id: 'm@F', top_n: 2 } },
    ]);
    const ports = fakePorts([{ text: '1. install\n2. windows\n3. license' }]);
    const events = await collect(runCanvas({ dsl: d, query: 'install on windows?', taskId: 't', ports }));
    expect(finished(events, 'KeywordExtract:K').outputs.content).toBe('install, windows');
    expect(ports.models.requests[0].messages[1]).toEqual({ role: 'user', content: 'install on windows?' });
  });
});

describe('Concentrator', () => {
  it('passes control on', async () => {
    const d = dsl([
      { id: 'begin', name: 'begin', downstream: ['Concentrator:C'] },
      { id: 'Concentrator:C', name: 'Join', downstream: ['Message:M'] },
      { id: 'Message:M', name: 'M', params: { content: ['joined'] } },
    ]);
    const t = trail(await collect(runCanvas({ dsl: d, query: 'q', taskId: 't', ports: fakePorts([]) })));
    expect(t).toContain('node_finished:Concentrator:C');
    expect(t).toContain('message:"joined"');
  });
});

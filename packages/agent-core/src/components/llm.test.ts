/** LLM (AGENTS.md §6.1). */
import { describe, expect, it } from 'vitest';
import { runCanvas } from '../runtime/run-canvas.js';
import { collect, dsl, finished } from '../../test/helpers.js';
import { FakeModels, fakePorts, type Script } from '../../test/fakes.js';

function flow(
  params: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  before: 'retrieval' | null = null,
) {
  const nodes = [
    { id: 'begin', name: 'begin', downstream: [before ? 'Retrieval:R' : 'LLM:A'] },
    ...(before
      ? [
          {
            id: 'Retrieval:R',
            name: 'Search',
            params: { query: 'sys.query', kb_ids: ['kb1'] },
            downstream: ['LLM:A'],
          },
        ]
      : []),
    { id: 'LLM:A', name: 'Writer', params: { llm_id: 'gpt@OpenAI', ...params } },
  ];
  return dsl(nodes, extra);
}

async function run(d: ReturnType<typeof flow>, script: Script, query = 'what now?', models?: FakeModels) {
  const ports = fakePorts(script, models ? { models } : {});
  const r = runCanvas({ dsl: d, query, taskId: 't', ports });
  const events = await collect(r);
  return { events, ports, r };
}

describe('LLM', () => {
  it('sends system prompt, the history window before this turn, then the prompts (same roles appended)', async () => {
    const history = [
      ['user', 'old 1'],
      ['assistant', { content: 'reply 1' }],
      ['user', 'old 2'],
      ['assistant', { content: 'reply 2' }],
    ];
    const d = flow(
      {
        sys_prompt: 'Be brief about {sys.query}.',
        prompts: [
          { role: 'user', content: 'Q: {sys.query}' },
          { role: 'user', content: 'Also consider {sys.conversation_turns}' },
        ],
        message_history_window_size: 1,
      },
      { history },
    );
    const { ports, events } = await run(d, [{ text: 'ok' }]);
    expect(ports.models.requests[0].messages).toEqual([
      { role: 'system', content: 'Be brief about what now?.' },
      { role: 'user', content: 'old 2' },
      { role: 'assistant', content: 'reply 2' },
      { role: 'user', content: 'Q: what now?' },
      { role: 'user', content: 'Also consider 1' },
    ]);
    expect(finished(events, 'LLM:A').outputs.content).toBe('ok');
    expect(finished(events, 'LLM:A').inputs).toEqual({
      'sys.query': 'what now?',
      'sys.conversation_turns': '1',
    });
  });

  it('sends only generation settings that are enabled and > 0 (numbers stored as text coerced)', async () => {
    const d = flow({
      temperature: '0.3',
      temperatureEnabled: true,
      top_p: 0.9,
      topPEnabled: false,
      max_tokens: 512,
      maxTokensEnabled: true,
      presence_penalty: 0,
      presencePenaltyEnabled: true,
      frequency_penalty: 0.5,
      frequencyPenaltyEnabled: true,
    });
    const { ports } = await run(d, [{ text: 'ok' }]);
    expect(ports.models.requests[0].options).toEqual({
      temperature: 0.3,
      maxTokens: 512,
      frequencyPenalty: 0.5,
    });
  });

  it('adds citation guidelines when the reference bucket has chunks, and cuts override tags out of sys_prompt', async () => {
    const d = flow(
      { sys_prompt: 'Answer.<CITATION_GUIDELINES>Cite like [ID:n] only.</CITATION_GUIDELINES>' },
      {},
      'retrieval',
    );
    const { ports } = await run(d, [{ text: 'ok' }]);
    expect(ports.models.requests[0].messages[0]).toEqual({
      role: 'system',
      content: 'Answer.\n\nCite like [ID:n] only.',
    });
    const noCite = flow({ sys_prompt: 'Answer.', cite: false }, {}, 'retrieval');
    const second = await run(noCite, [{ text: 'ok' }]);
    expect(second.ports.models.requests[0].messages[0]).toEqual({ role: 'system', content: 'Answer.' });
  });

  it('parses structured output and retries an unparsable answer max_retries + 1 times', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const d = flow({ outputs: { structured: schema }, max_retries: 1 });
    const ok = await run(d, [{ text: '<think>x</think>```json\n{"city": "Oslo"}\n```' }]);
    expect(finished(ok.events, 'LLM:A').outputs.structured).toEqual({ city: 'Oslo' });
    expect(finished(ok.events, 'LLM:A').outputs.content).toBeUndefined();
    expect(ok.ports.models.requests[0].json).toBe(true);
    expect(ok.ports.models.requests[0].messages[0].content).toContain('"city"');

    const bad = await run(d, [{ text: 'Oslo' }, { text: 'still Oslo' }]);
    expect(finished(bad.events, 'LLM:A').error).toBe('The answer could not be parsed as JSON: still Oslo');
    expect(bad.ports.models.requests[1].messages.at(-1)!.content).toContain('could not be parsed');
  });

  it("notes the host's model fallback on node_finished", async () => {
    const models = new FakeModels([{ text: 'ok' }], {
      fallbackNote: 'gpt@OpenAI is not configured; used the default chat model',
    });
    const { events } = await run(flow({}), [], 'q', models);
    expect(finished(events, 'LLM:A').note).toBe('gpt@OpenAI is not configured; used the default chat model');
  });

  it('drops the oldest history to fit 97 % of the context window', async () => {
    const long = 'x'.repeat(400);
    const history = Array.from({ length: 6 }, (_, i) => [i % 2 ? 'assistant' : 'user', `${i} ${long}`]);
    const models = new FakeModels([{ text: 'ok' }], { maxContextTokens: 300 });
    const { ports } = await run(flow({ message_history_window_size: 3 }, { history }), [], 'q', models);
    const sent = ports.models.requests[0].messages;
    // each history entry is ~104 tokens: two of the six fit beside the question in 291
    expect(sent.map((m) => m.content.slice(0, 2))).toEqual(['4 ', '5 ', 'q']);
  });
});

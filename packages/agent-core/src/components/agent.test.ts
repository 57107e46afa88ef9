/** Agent and its tool loop (AGENTS.md §6.2, issue 15 item 7). */
import { describe, expect, it } from 'vitest';
import { runCanvas } from '../runtime/run-canvas.js';
import { chunkKey } from '../runtime/references.js';
import { FINAL_ANSWER_NOTE } from './agent-loop.js';
import { answerText, collect, dsl, finished, trail } from '../../test/helpers.js';
import { FakeMcp, fakePorts, fakeTool, toolPort, type Script } from '../../test/fakes.js';

function flow(agentParams: Record<string, unknown>) {
  return dsl([
    { id: 'begin', name: 'begin', downstream: ['Agent:A'] },
    {
      id: 'Agent:A',
      name: 'Researcher',
      params: { llm_id: 'gpt@OpenAI', sys_prompt: 'You research.', max_rounds: 3, ...agentParams },
      downstream: ['Message:M'],
    },
    { id: 'Message:M', name: 'Answer', params: { content: ['{Agent:A@content}'] } },
  ]);
}

const retrievalTool = {
  component_name: 'Retrieval',
  name: 'Retrieval',
  params: { kb_ids: ['kb1'], description: '' },
};
const webTool = {
  component_name: 'TavilySearch',
  name: 'TavilySearch',
  params: { api_key: 'k', max_results: 3 },
};
const mcpEntry = {
  mcp_id: 'srv1',
  tools: {
    get_weather: {
      name: 'get_weather',
      description: 'Weather by city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
    },
  },
};

function web(inFlight: { now: number; peak: number }, fail = false) {
  return fakeTool('TavilySearch', 'tavily_search', async (args) => {
    inFlight.now++;
    inFlight.peak = Math.max(inFlight.peak, inFlight.now);
    await new Promise((r) => setTimeout(r, 20));
    inFlight.now--;
    if (fail) throw new Error('Tavily error: 401 InvalidAPIKey');
    return `web results for ${String(args.query)}`;
  });
}

describe('Agent tool loop', () => {
  it('runs parallel calls, feeds results back, streams only the final answer, and records every call', async () => {
    const key = chunkKey('c1');
    const inFlight = { now: 0, peak: 0 };
    const script: Script = [
      {
        text: ['Let me look that up.'],
        toolCalls: [
          { id: 'a', name: 'search_my_dateset_0', arguments: { query: 'storage engine' } },
          { id: 'b', name: 'tavily_search_1', arguments: '{"query": "lectern sqlite"}' },
        ],
      },
      { toolCalls: [{ id: 'c', name: 'get_weather', arguments: { city: 'Oslo' } }] },
      { text: ['Lectern uses SQLite ', `[ID:${key}]`, '.'] },
    ];
    const mcp = new FakeMcp((name, args) => `${name}: sunny in ${String(args.city)}`);
    const ports = fakePorts(script, { tools: toolPort(web(inFlight)), mcp });
    const run = runCanvas({
      dsl: flow({ tools: [retrievalTool, webTool], mcp: [mcpEntry] }),
      query: 'What does Lectern store data in?',
      taskId: 't',
      ports,
    });
    const events = await collect(run);

    expect(trail(events)).toEqual([
      'workflow_started',
      'node_started:begin',
      'node_finished:begin',
      'node_started:Agent:A',
      'node_started:Message:M',
      'message:"Lectern uses SQLite "',
      `message:"[ID:${key}]"`,
      'message:"."',
      'message_end',
      'node_finished:Agent:A',
      'node_finished:Message:M',
      'workflow_finished',
    ]);
    expect(answerText(events)).toBe(`Lectern uses SQLite [ID:${key}].`);
    expect(inFlight.peak).toBe(1); // one web call; the retrieval call ran beside it
    const reqs = ports.models.requests;
    expect(reqs[0].tools!.map((t) => t.name)).toEqual([
      'search_my_dateset_0',
      'tavily_search_1',
      'get_weather',
    ]);
    expect(reqs[0].tools![0].description).toBe(
      'This tool can be utilized for relevant content searching in the datasets.',
    );
    // citations: a Retrieval tool makes the guidelines part of the system prompt
    expect(reqs[0].messages[0].content).toContain('[ID:n]');
    expect(reqs[1].messages.slice(-3)).toEqual([
      {
        role: 'assistant',
        content: 'Let me look that up.',
        toolCalls: [
          { id: 'a', name: 'search_my_dateset_0', arguments: { query: 'storage engine' } },
          { id: 'b', name: 'tavily_search_1', arguments: '{"query": "lectern sqlite"}' },
        ],
      },
      {
        role: 'tool',
        toolCallId: 'a',
        name: 'search_my_dateset_0',
        content: `\nID: ${key}\n├── Title: manual.pdf\n└── Content:\nLectern stores chunks in SQLite.`,
      },
      { role: 'tool', toolCallId: 'b', name: 'tavily_search_1', content: 'web results for lectern sqlite' },
    ]);
    expect(reqs[2].messages.at(-1)).toEqual({
      role: 'tool',
      toolCallId: 'c',
      name: 'get_weather',
      content: 'get_weather: sunny in Oslo',
    });
    expect(mcp.calls).toEqual([{ mcpId: 'srv1', name: 'get_weather', arguments: { city: 'Oslo' } }]);

    const done = finished(events, 'Agent:A');
    expect(done.outputs.content).toBe(`Lectern uses SQLite [ID:${key}].`);
    expect(done.outputs.use_tools).toEqual([
      {
        name: 'search_my_dateset_0',
        arguments: { query: 'storage engine' },
        results: expect.stringContaining('Lectern stores chunks'),
      },
      {
        name: 'tavily_search_1',
        arguments: { query: 'lectern sqlite' },
        results: 'web results for lectern sqlite',
      },
      { name: 'get_weather', arguments: { city: 'Oslo' }, results: 'get_weather: sunny in Oslo' },
    ]);
    expect(run.trace).toHaveLength(1);
    expect(run.trace[0].component_id).toBe('Agent:A');
    expect(run.trace[0].trace.map((t) => [t.path, t.tool_name])).toEqual([
      ['Agent:A-->search_my_dateset_0', 'search_my_dateset_0'],
      ['Agent:A-->tavily_search_1', 'tavily_search_1'],
      ['Agent:A-->get_weather', 'get_weather'],
    ]);
    expect(run.trace[0].trace.every((t) => typeof t.elapsed_time === 'number')).toBe(true);
    // the retrieval hits are the run's references
    const end = events.find((e) => 'event' in e && e.event === 'message_end');
    expect(end && 'event' in end && Object.keys(end.data.reference!.chunks)).toEqual([String(key)]);
  });

  it('runs the calls of one answer concurrently', async () => {
    const inFlight = { now: 0, peak: 0 };
    const ports = fakePorts(
      [
        {
          toolCalls: [
            { name: 'tavily_search_0', arguments: { query: 'a' } },
            { name: 'tavily_search_0', arguments: { query: 'b' } },
            { name: 'tavily_search_0', arguments: { query: 'c' } },
          ],
        },
        { text: 'done' },
      ],
      { tools: toolPort(web(inFlight)) },
    );
    await collect(runCanvas({ dsl: flow({ tools: [webTool] }), query: 'q', taskId: 't', ports }));
    expect(inFlight.peak).toBe(3);
  });

  it('gives tool errors, unknown tools and bad arguments back to the model as results', async () => {
    const ports = fakePorts(
      [
        {
          toolCalls: [
            { id: 'x', name: 'tavily_search_0', arguments: { query: 'a' } },
            { id: 'y', name: 'nope', arguments: {} },
            { id: 'z', name: 'tavily_search_0', arguments: '{broken' },
          ],
        },
        { text: 'I could not search.' },
      ],
      { tools: toolPort(web({ now: 0, peak: 0 }, true)) },
    );
    const run = runCanvas({ dsl: flow({ tools: [webTool] }), query: 'q', taskId: 't', ports });
    const events = await collect(run);
    expect(ports.models.requests[1].messages.slice(-3).map((m) => m.content)).toEqual([
      'Error: Tavily error: 401 InvalidAPIKey',
      'Error: there is no tool named "nope"',
      expect.stringMatching(/^Error: the arguments are not valid JSON/),
    ]);
    expect(answerText(events)).toBe('I could not search.');
    expect((await run.outcome).status).toBe('finished');
  });

  it('stops calling tools after max_rounds and asks for the final answer without tools', async () => {
    const script: Script = (req) =>
      req.tools
        ? { text: 'thinking aloud', toolCalls: [{ name: 'tavily_search_0', arguments: { query: 'more' } }] }
        : { text: 'best effort' };
    const ports = fakePorts(script, { tools: toolPort(web({ now: 0, peak: 0 })) });
    const events = await collect(
      runCanvas({ dsl: flow({ tools: [webTool], max_rounds: 2 }), query: 'q', taskId: 't', ports }),
    );
    const reqs = ports.models.requests;
    expect(reqs).toHaveLength(3);
    expect(reqs.map((r) => Boolean(r.tools))).toEqual([true, true, false]);
    expect(reqs[2].messages.at(-1)).toEqual({ role: 'user', content: FINAL_ANSWER_NOTE });
    // text of tool rounds is held back: only the final answer reaches the user
    expect(answerText(events)).toBe('best effort');
  });

  it('calls a sub-agent with user_prompt, reasoning and context, and records its tool calls under its path', async () => {
    const sub = {
      component_name: 'Agent',
      id: 'Agent:Sub',
      name: 'Web Researcher',
      params: {
        llm_id: 'mini@OpenAI',
        sys_prompt: 'You search the web.',
        description: 'Finds facts on the web',
        tools: [webTool],
        max_rounds: 1,
      },
    };
    const script: Script = (req, _i, llmId) => {
      if (llmId === 'gpt@OpenAI')
        return req.messages.at(-1)!.role === 'tool'
          ? { text: 'Summary: fact' }
          : {
              toolCalls: [
                {
                  name: 'Web_Researcher_0',
                  arguments: { user_prompt: 'find X', reasoning: 'need X', context: '' },
                },
              ],
            };
      return req.messages.at(-1)!.role === 'tool'
        ? { text: 'fact' }
        : { toolCalls: [{ name: 'tavily_search_0', arguments: { query: 'X' } }] };
    };
    const ports = fakePorts(script, { tools: toolPort(web({ now: 0, peak: 0 })) });
    const run = runCanvas({ dsl: flow({ tools: [sub] }), query: 'q', taskId: 't', ports });
    const events = await collect(run);
    expect(answerText(events)).toBe('Summary: fact');
    const first = ports.models.models.get('gpt@OpenAI')!.requests[0];
    expect(first.tools).toEqual([
      expect.objectContaining({
        name: 'Web_Researcher_0',
        description: 'Finds facts on the web',
        parameters: expect.objectContaining({ required: ['user_prompt', 'reasoning', 'context'] }),
      }),
    ]);
    const subReq = ports.models.models.get('mini@OpenAI')!.requests[0];
    expect(subReq.messages).toEqual([
      { role: 'system', content: 'You search the web.' },
      { role: 'user', content: '### REASONING\nneed X\n\n### QUERY\nfind X' },
    ]);
    expect(run.trace[0].trace.map((t) => t.path)).toEqual([
      'Agent:A-->Web_Researcher-->tavily_search_0',
      'Agent:A-->Web_Researcher_0',
    ]);
  });

  it('fails with a configuration error when a tool has no implementation', async () => {
    const run = runCanvas({ dsl: flow({ tools: [webTool] }), query: 'q', taskId: 't', ports: fakePorts([]) });
    const events = await collect(run);
    expect(finished(events, 'Agent:A').error).toBe(
      'TavilySearch configuration error: no implementation is registered for this tool',
    );
  });

  it('runs exactly as an LLM without tools (MCP entries without ticked tools count as none)', async () => {
    const ports = fakePorts([{ text: 'plain' }]);
    const events = await collect(
      runCanvas({ dsl: flow({ mcp: [{ mcp_id: 'x', tools: {} }] }), query: 'q', taskId: 't', ports }),
    );
    expect(answerText(events)).toBe('plain');
    expect(ports.models.requests[0].tools).toBeUndefined();
    expect(finished(events, 'Agent:A').outputs.use_tools).toBeUndefined();
  });
});

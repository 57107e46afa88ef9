/**
 * An Agent component calls a tool of an MCP server its canvas owner registered (API.md §16, AGENTS.md
 * §11.3): the stand-in model asks for the tool through function calling, the call reaches the local
 * SDK server, its text goes back to the model, and the call is in the run's trace. Another tenant's
 * canvas cannot reach the server by naming its id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import {
  startMcpStandin,
  startOpenAIStandin,
  type McpStandin,
  type OpenAIChatBody,
  type Standin,
} from '../../../test/standins/index.js';
import type { ChatScript } from '../../../test/standins/openai.js';
import { CHAT_MODEL, wireModels } from '../../chat/test-fixtures.js';
import {
  answerText,
  editorDsl,
  llmParams,
  postRun,
  saveCanvas,
  toolAwareReply,
  trail,
} from '../canvas/test-support.js';

let server: TestServer;
let llm: Standin;
let mcp: McpStandin;
let owner: TestUser;
let stranger: TestUser;
let mcpId = '';
let lookupTool: Record<string, unknown> = {};

beforeAll(async () => {
  mcp = await startMcpStandin();
  llm = await startOpenAIStandin({ reply: (body) => repeatedCalls(body) ?? toolAwareReply(body) });
  server = await startTestServer({ MODEL_MAX_RETRIES: '0' });
  owner = await newUser(server, 'mcpagent');
  stranger = await newUser(server, 'mcpother');
  await wireModels(server, owner, llm);
  await wireModels(server, stranger, llm);
  const res = await call<{ id: string; variables: { tools: Record<string, Record<string, unknown>> } }>(
    server,
    '/v1/mcp_server/create',
    {
      token: owner.token,
      body: { name: 'Lookup', url: mcp.streamableUrl, server_type: 'streamable-http' },
    },
  );
  mcpId = res.body.data!.id;
  lookupTool = res.body.data!.variables.tools.lookup;
});

afterAll(async () => {
  await server?.close();
  await llm?.close();
  await mcp?.close();
});

function agentFlow(id: string, maxRounds = 2) {
  return editorDsl([
    { id: 'begin', name: 'begin', downstream: ['Agent:Asker'] },
    {
      id: 'Agent:Asker',
      name: 'Asker',
      params: {
        ...llmParams(CHAT_MODEL, '{sys.query}'),
        max_rounds: maxRounds,
        mcp: [{ mcp_id: id, tools: { lookup: lookupTool } }],
      },
      downstream: ['Message:Out'],
    },
    { id: 'Message:Out', name: 'Out', params: { content: ['{Agent:Asker@content}'] } },
  ]);
}

/**
 * For the query "three lookups": two parallel calls of `lookup` in round one, one more in round two,
 * then the answer (the Agent's `max_rounds` is 3).
 */
function repeatedCalls(body: OpenAIChatBody): ChatScript | undefined {
  const user = body.messages.find((m) => m.role === 'user');
  if (user?.content !== 'three lookups' || !Array.isArray(body.tools)) return undefined;
  const results = body.messages.filter((m) => m.role === 'tool').length;
  if (results === 0)
    return {
      content: '',
      toolCalls: [
        { id: 'c1', name: 'lookup', arguments: { query: 'tides' } },
        { id: 'c2', name: 'lookup', arguments: { query: 'moon' } },
      ],
    };
  if (results === 2)
    return { content: '', toolCalls: [{ id: 'c3', name: 'lookup', arguments: { query: 'wind' } }] };
  return { content: `Looked up ${results} things.` };
}

type Step = { tool_name: string; arguments: Record<string, unknown>; result: string; elapsed_time: number };

async function traceOf(canvasId: string, frames: Array<Record<string, unknown>>) {
  const messageId = String(frames[0].message_id);
  const log = await call<{ trace: Array<{ component_id: string; trace: Step[] }> }>(
    server,
    `/v1/canvas/trace?canvas_id=${canvasId}&message_id=${messageId}`,
  );
  return log.body.data!.trace.flatMap((t) => t.trace);
}

describe('Agent with MCP tools', () => {
  it('calls the MCP tool through function calling; the call is in the trace', async () => {
    const canvas = await saveCanvas(server, owner, { title: 'MCP agent', dsl: agentFlow(mcpId) });
    const before = mcp.calls.length;
    const r = await postRun(server, '/v1/canvas/completion', { id: canvas.id, query: 'tides' }, owner.token);
    expect(trail(r.frames).at(-1)).toBe('workflow_finished');
    expect(mcp.calls.slice(before)).toEqual([{ name: 'lookup', args: { query: 'tides' } }]);
    expect(answerText(r.frames)).toContain('From the tool: MCP says: tides');
    const offered = llm
      .modelCalls()
      .map((c) => c.body as OpenAIChatBody)
      .find((b) => Array.isArray(b.tools))!;
    expect(offered.tools).toContainEqual({
      type: 'function',
      function: expect.objectContaining({ name: 'lookup', description: 'Looks a query up' }),
    });
    const steps = await traceOf(canvas.id, r.frames);
    const step = steps.find((s) => s.tool_name === 'lookup')!;
    expect(step).toMatchObject({ arguments: { query: 'tides' }, result: 'MCP says: tides' });
    expect(step.elapsed_time).toBeGreaterThanOrEqual(0);
  });

  it("another tenant's canvas naming the server's id gets a tool error, and the server is not called", async () => {
    const canvas = await saveCanvas(server, stranger, { title: 'Borrowed', dsl: agentFlow(mcpId) });
    const before = mcp.calls.length;
    const r = await postRun(
      server,
      '/v1/canvas/completion',
      { id: canvas.id, query: 'tides' },
      stranger.token,
    );
    expect(trail(r.frames).at(-1)).toBe('workflow_finished');
    expect(mcp.calls.length).toBe(before);
    const step = (await traceOf(canvas.id, r.frames)).find((s) => s.tool_name === 'lookup')!;
    expect(step.result).toBe(`Error: Cannot find MCP server ${mcpId}`);
  });

  it('the MCP calls of a run share one session, and the next run reuses it from the pool', async () => {
    const session = await call<{ id: string }>(server, '/v1/mcp_server/create', {
      token: owner.token,
      body: { name: 'Lookup with sessions', url: mcp.sessionUrl, server_type: 'streamable-http' },
    });
    const canvas = await saveCanvas(server, owner, {
      title: 'Three lookups',
      dsl: agentFlow(session.body.data!.id, 3),
    });
    const before = mcp.connections();
    const callsBefore = mcp.calls.length;
    const first = await postRun(
      server,
      '/v1/canvas/completion',
      { id: canvas.id, query: 'three lookups' },
      owner.token,
    );
    expect(trail(first.frames).at(-1)).toBe('workflow_finished');
    expect(answerText(first.frames)).toContain('Looked up 3 things.');
    expect(mcp.calls.slice(callsBefore).map((c) => c.args.query)).toEqual(
      expect.arrayContaining(['tides', 'moon', 'wind']),
    );
    expect(mcp.connections() - before).toBe(1);

    const second = await postRun(
      server,
      '/v1/canvas/completion',
      { id: canvas.id, query: 'three lookups' },
      owner.token,
    );
    expect(answerText(second.frames)).toContain('Looked up 3 things.');
    expect(mcp.calls.length - callsBefore).toBe(6);
    expect(mcp.connections() - before).toBe(1);
  });
});

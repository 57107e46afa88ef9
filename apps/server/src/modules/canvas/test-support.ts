/** Test helpers of the canvas routes: DSLs as the v0.24 editor saves them, saving, runs over HTTP. */
import { call, type TestServer, type TestUser } from '../../../test/harness.js';
import type { OpenAIChatBody } from '../../../test/standins/index.js';
import { defaultReply, type ChatScript } from '../../../test/standins/openai.js';

export interface NodeSpec {
  id: string;
  name: string;
  params?: Record<string, unknown>;
  downstream?: string[];
}

/** A DSL in the editor's saved shape: components (with upstream/downstream) plus the graph. */
export function editorDsl(nodes: NodeSpec[]) {
  const components: Record<string, unknown> = {};
  for (const n of nodes) {
    components[n.id] = {
      obj: { component_name: n.id === 'begin' ? 'Begin' : n.id.split(':')[0], params: n.params ?? {} },
      downstream: n.downstream ?? [],
      upstream: nodes.filter((m) => (m.downstream ?? []).includes(n.id)).map((m) => m.id),
    };
  }
  return {
    components,
    graph: {
      nodes: nodes.map((n, i) => ({
        id: n.id,
        type: n.id === 'begin' ? 'beginNode' : 'ragNode',
        position: { x: i * 200, y: 0 },
        data: { label: n.id === 'begin' ? 'Begin' : n.id.split(':')[0], name: n.name, form: n.params ?? {} },
      })),
      edges: nodes.flatMap((n) =>
        (n.downstream ?? []).map((t) => ({
          id: `xy-edge__${n.id}start-${t}end`,
          source: n.id,
          sourceHandle: 'start',
          target: t,
          targetHandle: 'end',
        })),
      ),
    },
    globals: { 'sys.conversation_turns': 0, 'sys.files': [], 'sys.query': '', 'sys.user_id': '' },
    history: [],
    path: [],
    retrieval: [],
    messages: [],
  };
}

export const llmParams = (llmId: string, prompt: string, extra: Record<string, unknown> = {}) => ({
  llm_id: llmId,
  sys_prompt: 'You are terse.',
  prompts: [{ role: 'user', content: prompt }],
  temperature: 0.1,
  ...extra,
});

/** Begin → LLM → Message. */
export function simpleFlow(llmId: string) {
  return editorDsl([
    {
      id: 'begin',
      name: 'begin',
      params: { mode: 'conversational', prologue: 'Hi!' },
      downstream: ['LLM:Writer'],
    },
    {
      id: 'LLM:Writer',
      name: 'Writer',
      params: llmParams(llmId, '{sys.query}'),
      downstream: ['Message:Reply'],
    },
    { id: 'Message:Reply', name: 'Reply', params: { content: ['{LLM:Writer@content}'] } },
  ]);
}

/** A chain of `n` components: Begin → (n − 2) StringTransforms → LLM → Message (bench and tests). */
export function chainFlow(llmId: string, n: number) {
  const steps = Math.max(0, n - 3);
  const ids = Array.from({ length: steps }, (_, i) => `StringTransform:Step${i}`);
  const nodes: NodeSpec[] = [{ id: 'begin', name: 'begin', downstream: [ids[0] ?? 'LLM:Writer'] }];
  ids.forEach((id, i) =>
    nodes.push({
      id,
      name: `Step ${i}`,
      params: {
        method: 'merge',
        script: i === 0 ? '{sys.query}!' : `{${ids[i - 1]}@result}.`,
        delimiters: [','],
      },
      downstream: [ids[i + 1] ?? 'LLM:Writer'],
    }),
  );
  const last = ids.length ? `{${ids[ids.length - 1]}@result}` : '{sys.query}';
  nodes.push({
    id: 'LLM:Writer',
    name: 'Writer',
    params: llmParams(llmId, last),
    downstream: ['Message:Reply'],
  });
  nodes.push({ id: 'Message:Reply', name: 'Reply', params: { content: ['{LLM:Writer@content}'] } });
  return editorDsl(nodes);
}

/**
 * The stand-in's answer: with functions offered and no tool result yet, call the first one with
 * the last user text; otherwise the default echo (which names the tool results when there are).
 */
export function toolAwareReply(body: OpenAIChatBody): ChatScript {
  const tools = body.tools as Array<{ function: { name: string } }> | undefined;
  const hasResult = body.messages.some((m) => m.role === 'tool');
  if (tools?.length && !hasResult) {
    const last = [...body.messages].reverse().find((m) => m.role === 'user');
    const query = typeof last?.content === 'string' ? last.content : 'question';
    return { content: '', toolCalls: [{ id: 'call_1', name: tools[0].function.name, arguments: { query } }] };
  }
  if (hasResult) {
    const result = body.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    return { content: `From the tool: ${result.join(' | ').slice(0, 200)}` };
  }
  return defaultReply(body);
}

export async function saveCanvas(
  server: TestServer,
  user: TestUser,
  body: Record<string, unknown>,
): Promise<{ id: string } & Record<string, unknown>> {
  const res = await call<{ id: string }>(server, '/v1/canvas/set', { token: user.token, body });
  if (res.body.code !== 0) throw new Error(`${res.body.code} ${res.body.message}`);
  return res.body.data as { id: string };
}

export type Frame = Record<string, unknown> & {
  event?: string;
  data?: Record<string, unknown> | false;
  code?: number;
  message?: string;
};

export interface RunResponse {
  contentType: string;
  frames: Frame[];
  raw: string;
  /** The JSON envelope when the route answered without a stream. */
  json?: { code: number; message: string; data?: unknown };
}

/** POSTs a run and reads the whole stream (frames as sent; `[DONE]` kept as the string). */
export async function postRun(
  server: TestServer,
  route: string,
  body: unknown,
  token: string,
): Promise<RunResponse> {
  const res = await fetch(`${server.url}${route}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: token },
    body: JSON.stringify(body),
  });
  const raw = await res.text();
  const contentType = res.headers.get('content-type') ?? '';
  if (!contentType.startsWith('text/event-stream'))
    return { contentType, frames: [], raw, json: JSON.parse(raw) as RunResponse['json'] };
  const frames = raw
    .split('\n\n')
    .filter((b) => b.startsWith('data:'))
    .map((b) => {
      const text = b.slice(5);
      return (text === '[DONE]' ? { done: true } : JSON.parse(text)) as Frame;
    });
  return { contentType, frames, raw };
}

/** `node_started:<id>` / `message` / … of a run's frames. */
export function trail(frames: Frame[]): string[] {
  return frames.map((f) => {
    if (f.done) return '[DONE]';
    if (!f.event) return `error:${f.message}`;
    const d = f.data as Record<string, unknown>;
    if (f.event === 'node_started' || f.event === 'node_finished')
      return `${f.event}:${String(d.component_id)}${f.event === 'node_finished' && d.error ? '!' : ''}`;
    return f.event;
  });
}

export function answerText(frames: Frame[]): string {
  return frames
    .filter((f) => f.event === 'message')
    .map((f) => String((f.data as { content: string }).content))
    .join('');
}

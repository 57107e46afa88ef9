/** Building small DSLs and reading event streams in tests. */
import type { CanvasRun } from '../src/runtime/run-canvas.js';
import type { RunEvent } from '../src/runtime/events.js';

export interface NodeSpec {
  id: string;
  name: string;
  params?: Record<string, unknown>;
  downstream?: string[];
  parent?: string;
  label?: string;
}

/** A DSL in the shape the v0.24 editor saves: components plus a graph naming them. */
export function dsl(nodes: NodeSpec[], extra: Record<string, unknown> = {}) {
  const components: Record<string, unknown> = {};
  for (const n of nodes) {
    const type = n.id === 'begin' ? 'Begin' : n.id.split(':')[0];
    components[n.id] = {
      obj: { component_name: type, params: n.params ?? {} },
      downstream: n.downstream ?? [],
      upstream: nodes.filter((m) => (m.downstream ?? []).includes(n.id)).map((m) => m.id),
      ...(n.parent ? { parent_id: n.parent } : {}),
    };
  }
  const edges = nodes.flatMap((n) =>
    (n.downstream ?? []).map((t) => ({
      id: `xy-edge__${n.id}start-${t}end`,
      source: n.id,
      sourceHandle: 'start',
      target: t,
      targetHandle: 'end',
    })),
  );
  return {
    components,
    graph: {
      nodes: nodes.map((n) => ({
        id: n.id,
        type: 'ragNode',
        position: { x: 0, y: 0 },
        data: { label: n.label ?? n.id.split(':')[0], name: n.name, form: n.params ?? {} },
        ...(n.parent ? { parentId: n.parent } : {}),
      })),
      edges,
    },
    globals: { 'sys.conversation_turns': 0, 'sys.files': [], 'sys.query': '', 'sys.user_id': '' },
    history: [],
    path: [],
    retrieval: [],
    messages: [],
    ...extra,
  };
}

export async function collect(run: CanvasRun): Promise<RunEvent[]> {
  const out: RunEvent[] = [];
  for await (const e of run) out.push(e);
  return out;
}

/** Compact form of an event sequence: `node_started:begin`, `message:"Hi"`, `error:…`. */
export function trail(events: RunEvent[]): string[] {
  return events.map((e) => {
    if (!('event' in e)) return `error:${e.message}`;
    switch (e.event) {
      case 'node_started':
      case 'node_finished':
        return `${e.event}:${e.data.component_id}${e.event === 'node_finished' && e.data.error ? '!' : ''}`;
      case 'message':
        return e.data.start_to_think
          ? 'think_start'
          : e.data.end_to_think
            ? 'think_end'
            : `message:${JSON.stringify(e.data.content)}`;
      default:
        return e.event;
    }
  });
}

export function finished(events: RunEvent[], id: string) {
  for (const e of events)
    if ('event' in e && e.event === 'node_finished' && e.data.component_id === id) return e.data;
  throw new Error(`no node_finished for ${id}`);
}

/** The answer text the client saw (message deltas outside think markers). */
export function answerText(events: RunEvent[]): string {
  let thinking = false;
  let text = '';
  for (const e of events) {
    if (!('event' in e) || e.event !== 'message') continue;
    if (e.data.start_to_think) thinking = true;
    else if (e.data.end_to_think) thinking = false;
    else if (!thinking) text += e.data.content;
  }
  return text;
}

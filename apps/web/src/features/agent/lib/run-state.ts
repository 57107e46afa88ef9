import type { JsonValue } from '@lectern/shared';

/**
 * What the run panel and the canvas show of a run, folded from its SSE events (API.md §13.2): the
 * status and elapsed time of each node, the streamed answer with its references, a UserFillUp form,
 * the error, and the trace (every node_finished, in order).
 */
export type NodeStatus = 'running' | 'finished' | 'error';

export interface NodeRunState {
  status: NodeStatus;
  startedAt: number;
  elapsed?: number;
  error?: string | null;
}

export interface TraceEntry {
  componentId: string;
  componentName: string;
  componentType: string;
  inputs: unknown;
  outputs: unknown;
  error: string | null;
  elapsed: number;
}

export interface Reference {
  chunks: Record<
    string,
    { content?: string; document_name?: string; document_id?: string; [k: string]: unknown }
  >;
  doc_aggs: Record<string, unknown>;
}

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
  reference?: Reference | null;
  attachment?: unknown;
  files?: string[];
}

export interface UserInputsRequest {
  inputs: Record<
    string,
    { name?: string; type?: string; optional?: boolean; options?: JsonValue[]; value?: JsonValue }
  >;
  tips: string;
}

export interface RunState {
  running: boolean;
  messageId: string | null;
  taskId: string | null;
  nodes: Record<string, NodeRunState>;
  turns: ChatTurn[];
  thinking: boolean;
  userInputs: UserInputsRequest | null;
  error: string | null;
  trace: TraceEntry[];
  elapsed: number | null;
}

export const initialRunState: RunState = {
  running: false,
  messageId: null,
  taskId: null,
  nodes: {},
  turns: [],
  thinking: false,
  userInputs: null,
  error: null,
  trace: [],
  elapsed: null,
};

export type RunAction =
  | { type: 'start'; query: string; files?: string[] }
  | { type: 'event'; event: unknown; at: number }
  | { type: 'failed'; message: string }
  | { type: 'ended' }
  | { type: 'reset' };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

function lastAssistant(turns: ChatTurn[]): ChatTurn[] {
  const last = turns[turns.length - 1];
  return last?.role === 'assistant' ? turns : [...turns, { role: 'assistant', content: '' }];
}

function patchAssistant(turns: ChatTurn[], patch: (t: ChatTurn) => ChatTurn): ChatTurn[] {
  const next = lastAssistant(turns);
  return [...next.slice(0, -1), patch(next[next.length - 1])];
}

export function runReducer(state: RunState, action: RunAction): RunState {
  switch (action.type) {
    case 'reset':
      return initialRunState;
    case 'start': {
      const turns =
        action.query || action.files?.length
          ? [...state.turns, { role: 'user' as const, content: action.query, files: action.files }]
          : state.turns;
      return {
        ...state,
        running: true,
        nodes: {},
        trace: [],
        error: null,
        userInputs: null,
        elapsed: null,
        turns,
      };
    }
    case 'failed':
      return { ...state, running: false, error: action.message };
    case 'ended':
      return { ...state, running: false, thinking: false };
    case 'event':
      return applyEvent(state, action.event, action.at);
  }
}

function applyEvent(state: RunState, raw: unknown, at: number): RunState {
  if (!isObj(raw)) return state;
  if (typeof raw.code === 'number' && raw.code !== 0 && !('event' in raw))
    return { ...state, running: false, error: str(raw.message) || String(raw.code) };
  const data = isObj(raw.data) ? raw.data : {};
  const base = {
    ...state,
    messageId: str(raw.message_id) || state.messageId,
    taskId: str(raw.task_id) || state.taskId,
  };
  switch (raw.event) {
    case 'node_started': {
      const id = str(data.component_id);
      return { ...base, nodes: { ...base.nodes, [id]: { status: 'running', startedAt: at } } };
    }
    case 'node_finished': {
      const id = str(data.component_id);
      const error = typeof data.error === 'string' && data.error ? data.error : null;
      const elapsed = typeof data.elapsed_time === 'number' ? data.elapsed_time : 0;
      const entry: TraceEntry = {
        componentId: id,
        componentName: str(data.component_name),
        componentType: str(data.component_type),
        inputs: data.inputs ?? null,
        outputs: data.outputs ?? null,
        error,
        elapsed,
      };
      return {
        ...base,
        nodes: {
          ...base.nodes,
          [id]: {
            status: error ? 'error' : 'finished',
            startedAt: base.nodes[id]?.startedAt ?? at,
            elapsed,
            error,
          },
        },
        trace: [...base.trace, entry],
        error: error ?? base.error,
      };
    }
    case 'message': {
      if (data.start_to_think) return { ...base, thinking: true };
      if (data.end_to_think) return { ...base, thinking: false };
      if (base.thinking) return base;
      return {
        ...base,
        turns: patchAssistant(base.turns, (t) => ({ ...t, content: t.content + str(data.content) })),
      };
    }
    case 'message_end': {
      const reference = isObj(data.reference) ? (data.reference as unknown as Reference) : null;
      return {
        ...base,
        turns: patchAssistant(base.turns, (t) => ({
          ...t,
          reference: reference ?? t.reference,
          attachment: data.attachment ?? t.attachment,
        })),
      };
    }
    case 'user_inputs':
      return {
        ...base,
        running: false,
        userInputs: {
          inputs: (isObj(data.inputs) ? data.inputs : {}) as UserInputsRequest['inputs'],
          tips: str(data.tips),
        },
      };
    case 'workflow_finished': {
      const outputs = data.outputs;
      const cancelled = outputs === 'Task has been canceled';
      const error =
        isObj(outputs) && typeof outputs._ERROR === 'string' && outputs._ERROR ? outputs._ERROR : null;
      return {
        ...base,
        running: false,
        elapsed: typeof data.elapsed_time === 'number' ? data.elapsed_time : null,
        error: error ?? (cancelled ? 'canceled' : base.error),
      };
    }
    default:
      return base;
  }
}

/** `[ID:n]` markers of an answer → the chunk keys it cites, in order, without repeats. */
export function citedKeys(text: string): string[] {
  return [...new Set([...text.matchAll(/\[ID:(\d+)\]/g)].map((m) => m[1]))];
}

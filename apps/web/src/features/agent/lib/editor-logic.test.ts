import { afterEach, describe, expect, it, vi } from 'vitest';
import { Autosaver, type SaveState } from './autosave';
import { copySelection, pasteContent } from './clipboard';
import { UndoStack } from './history';
import { createNodes, newEdge } from './node-factory';
import { initialRunState, runReducer, citedKeys, type RunAction } from './run-state';
import { flowIssues, parseEmailParamsFile } from './validate-flow';
import { variableOptions } from './variables';
import type { AgentNode } from './flow-types';

const node = (id: string, label: string, name: string, form: Record<string, unknown> = {}): AgentNode => ({
  id,
  position: { x: 0, y: 0 },
  data: { label, name, form },
});

describe('validation (SPEC §5)', () => {
  it('names must be non-empty and unique; Message needs text; Email needs its five fields', () => {
    const nodes = [
      node('begin', 'Begin', 'begin'),
      node('Message:A', 'Message', 'reply', { content: ['hello', ' '] }),
      node('Message:B', 'Message', 'reply', { content: ['ok'] }),
      node('Agent:C', 'Agent', '  '),
      node('Email:D', 'Email', 'mail', {
        smtp_server: 'smtp.example.com',
        email: 'a@b.c',
        password: '',
        to_email: '{sys.query}',
        content: '',
      }),
      node('Note:E', 'Note', ''),
    ];
    expect(flowIssues(nodes).map((i) => [i.nodeId, i.field, i.key, i.values?.name])).toEqual([
      ['Message:A', 'name', 'nameDuplicate', 'reply'],
      ['Message:A', 'content', 'messageTextRequired', undefined],
      ['Message:B', 'name', 'nameDuplicate', 'reply'],
      ['Agent:C', 'name', 'nameRequired', undefined],
      ['Email:D', 'password', 'emailRequired.password', undefined],
      ['Email:D', 'content', 'emailRequired.content', undefined],
    ]);
  });

  it('accepts an Email parameter file only as JSON with Email parameters as strings', () => {
    expect(parseEmailParamsFile('{"to_email":"a@b.c","subject":"Hi {sys.query}"}')).toEqual({
      ok: true,
      values: { to_email: 'a@b.c', subject: 'Hi {sys.query}' },
    });
    expect(parseEmailParamsFile('not json')).toEqual({ ok: false, key: 'jsonInvalid' });
    expect(parseEmailParamsFile('[1,2]')).toEqual({ ok: false, key: 'jsonContent' });
    expect(parseEmailParamsFile('{}')).toEqual({ ok: false, key: 'jsonContent' });
    expect(parseEmailParamsFile('{"smtp_server":"x"}')).toEqual({ ok: false, key: 'jsonContent' });
    expect(parseEmailParamsFile('{"to_email":5}')).toEqual({ ok: false, key: 'jsonContent' });
  });
});

describe('undo/redo stack', () => {
  it('undoes and redoes snapshots; a new change clears redo', () => {
    const stack = new UndoStack<number>();
    stack.push(0);
    stack.push(1);
    expect(stack.undo(2)).toBe(1);
    expect(stack.undo(1)).toBe(0);
    expect(stack.undo(0)).toBeNull();
    expect(stack.redo(0)).toBe(1);
    expect(stack.canRedo).toBe(true);
    stack.push(1);
    expect(stack.canRedo).toBe(false);
    expect(stack.redo(5)).toBeNull();
  });

  it('merges changes with the same key made in quick succession and keeps at most `limit` steps', () => {
    let now = 0;
    const stack = new UndoStack<string>({ mergeMs: 500, limit: 2, now: () => now });
    stack.push('a', 'name');
    now = 100;
    stack.push('ab', 'name');
    now = 1000;
    stack.push('abc', 'name');
    expect(stack.undo('abcd')).toBe('abc');
    expect(stack.undo('abc')).toBe('a');
    expect(stack.canUndo).toBe(false);
    const small = new UndoStack<number>({ limit: 2 });
    [1, 2, 3].forEach((n) => small.push(n));
    expect(small.undo(4)).toBe(3);
    expect(small.undo(3)).toBe(2);
    expect(small.undo(2)).toBeNull();
  });
});

describe('autosave debounce', () => {
  afterEach(() => vi.useRealTimers());

  it('saves once after the last change, reports dirty → saving → saved, and never overlaps saves', async () => {
    vi.useFakeTimers();
    const saved: string[] = [];
    const states: SaveState['kind'][] = [];
    let release: () => void = () => {};
    const saver = new Autosaver<string>({
      delayMs: 1000,
      save: async (v) => {
        saved.push(v);
        await new Promise<void>((r) => (release = r));
        return { ok: true };
      },
      onState: (s) => states.push(s.kind),
    });
    saver.change('a');
    await vi.advanceTimersByTimeAsync(600);
    saver.change('ab');
    await vi.advanceTimersByTimeAsync(600);
    expect(saved).toEqual([]);
    await vi.advanceTimersByTimeAsync(400);
    expect(saved).toEqual(['ab']);
    saver.change('abc'); // while the first save is in flight
    await vi.advanceTimersByTimeAsync(2000);
    expect(saved).toEqual(['ab']);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(saved).toEqual(['ab', 'abc']);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(states).toEqual(['dirty', 'dirty', 'saving', 'dirty', 'saving', 'saved']);
  });

  it('flush saves at once; a failed save reports its reason', async () => {
    const states: SaveState[] = [];
    const saver = new Autosaver<number>({
      delayMs: 60_000,
      save: async (v) => (v > 1 ? { ok: false, message: 'Fail to save canvas.' } : { ok: true }),
      onState: (s) => states.push(s),
      now: () => 42,
    });
    saver.change(1);
    await saver.flush();
    expect(saver.lastError).toBeNull();
    saver.change(2);
    await saver.flush();
    expect(states).toEqual([
      { kind: 'dirty' },
      { kind: 'saving' },
      { kind: 'saved', at: 42 },
      { kind: 'dirty' },
      { kind: 'saving' },
      { kind: 'error', message: 'Fail to save canvas.' },
    ]);
    expect(saver.hasPending).toBe(false);
    expect(saver.lastError).toBe('Fail to save canvas.');
  });
});

describe('run events → node states, answer and trace', () => {
  const ev = (event: string, data: Record<string, unknown>): RunAction => ({
    type: 'event',
    at: 1000,
    event: { event, message_id: 'm1', task_id: 't1', created_at: 1, data },
  });

  it('folds the typical Begin → Retrieval → Agent → Message sequence (AGENTS.md §7.3)', () => {
    const actions: RunAction[] = [
      { type: 'start', query: 'what?' },
      ev('workflow_started', { inputs: {} }),
      ev('node_started', { component_id: 'begin' }),
      ev('node_finished', {
        component_id: 'begin',
        component_name: 'begin',
        component_type: 'Begin',
        outputs: {},
        error: null,
        elapsed_time: 0.01,
      }),
      ev('node_started', { component_id: 'Agent:A' }),
      ev('message', { content: '', start_to_think: true }),
      ev('message', { content: 'hidden' }),
      ev('message', { content: '', end_to_think: true }),
      ev('message', { content: 'It is ' }),
      ev('message', { content: 'blue [ID:3].' }),
      ev('message_end', { reference: { chunks: { 3: { content: 'sky' } }, doc_aggs: {} } }),
      ev('node_finished', {
        component_id: 'Agent:A',
        component_name: 'agent',
        component_type: 'Agent',
        outputs: {},
        error: 'boom',
        elapsed_time: 1.5,
      }),
      ev('workflow_finished', { outputs: { content: 'x' }, elapsed_time: 2 }),
    ];
    const s = actions.reduce(runReducer, initialRunState);
    expect(s.running).toBe(false);
    expect(s.taskId).toBe('t1');
    expect(s.nodes.begin).toEqual({ status: 'finished', startedAt: 1000, elapsed: 0.01, error: null });
    expect(s.nodes['Agent:A'].status).toBe('error');
    expect(s.turns).toEqual([
      { role: 'user', content: 'what?', files: undefined },
      {
        role: 'assistant',
        content: 'It is blue [ID:3].',
        reference: { chunks: { 3: { content: 'sky' } }, doc_aggs: {} },
        attachment: undefined,
      },
    ]);
    expect(s.trace.map((t) => [t.componentId, t.elapsed])).toEqual([
      ['begin', 0.01],
      ['Agent:A', 1.5],
    ]);
    expect(s.error).toBe('boom');
    expect(s.elapsed).toBe(2);
    expect(citedKeys(s.turns[1].content)).toEqual(['3']);
  });

  it('a pause asks for the UserFillUp form; an error event ends the run with its message', () => {
    let s = runReducer(initialRunState, { type: 'start', query: '' });
    s = runReducer(
      s,
      ev('user_inputs', { inputs: { city: { name: 'City', type: 'line' } }, tips: 'Where?' }),
    );
    expect(s.running).toBe(false);
    expect(s.userInputs).toEqual({ inputs: { city: { name: 'City', type: 'line' } }, tips: 'Where?' });
    s = runReducer(s, { type: 'start', query: '' });
    expect(s.userInputs).toBeNull();
    s = runReducer(s, { type: 'event', at: 0, event: { code: 500, message: 'model down', data: false } });
    expect(s.error).toBe('model down');
  });
});

describe('variable picker', () => {
  it('offers sys.*, env.* and the outputs of upstream nodes only', () => {
    const nodes = [
      node('begin', 'Begin', 'begin', { inputs: [{ key: 'lang', name: 'Language', type: 'line' }] }),
      node('Retrieval:R', 'Retrieval', 'search'),
      node('Agent:A', 'Agent', 'writer'),
      node('Message:M', 'Message', 'out'),
    ];
    const edges = [
      newEdge('begin', 'start', 'Retrieval:R'),
      newEdge('Retrieval:R', 'start', 'Agent:A'),
      newEdge('Agent:A', 'start', 'Message:M'),
    ];
    const values = variableOptions('Agent:A', nodes, edges, { lang: {} }).map((o) => o.value);
    expect(values).toContain('sys.query');
    expect(values).toContain('env.lang');
    expect(values).toContain('begin@lang');
    expect(values).toContain('Retrieval:R@formalized_content');
    expect(values.some((v) => v.startsWith('Agent:A@') || v.startsWith('Message:M@'))).toBe(false);
  });
});

describe('copy/paste', () => {
  it('copies a container with its children, pastes with new ids, unique names and rewired edges; never Begin', () => {
    let n = 0;
    const random = () => (n++ % 12) / 12;
    const [loop, start] = createNodes({ operator: 'Loop', position: { x: 10, y: 10 }, existing: [], random });
    const begin = node('begin', 'Begin', 'begin');
    const graph = { nodes: [begin, loop, start], edges: [newEdge('begin', 'start', loop.id)] };
    const copied = copySelection(graph, ['begin', loop.id]);
    expect(copied?.nodes.map((x) => x.id)).toEqual([loop.id, start.id]);
    const pasted = pasteContent(graph, copied!, 40, random);
    const fresh = pasted.nodes.filter((x) => pasted.pastedIds.includes(x.id));
    expect(fresh).toHaveLength(2);
    expect(fresh[0].data.name).toBe('Loop_1');
    expect(fresh[0].position).toEqual({ x: 50, y: 50 });
    expect(fresh[1].parentId).toBe(fresh[0].id);
    expect(new Set(pasted.nodes.map((x) => x.id)).size).toBe(5);
  });
});

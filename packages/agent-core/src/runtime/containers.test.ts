/** Iteration/IterationItem and Loop/LoopItem/ExitLoop (AGENTS.md §3.6, §3.7). */
import { describe, expect, it } from 'vitest';
import { runCanvas } from './run-canvas.js';
import { collect, dsl, finished, trail } from '../../test/helpers.js';
import { fakePorts } from '../../test/fakes.js';

function iterationFlow(items: unknown) {
  return dsl(
    [
      {
        id: 'begin',
        name: 'begin',
        params: { inputs: { items: { name: 'Items', type: 'line' } } },
        downstream: ['Iteration:It'],
      },
      {
        id: 'Iteration:It',
        name: 'Each',
        params: {
          items_ref: 'begin@items',
          outputs: { upper: { ref: 'StringTransform:Up@result', type: 'Array<string>' } },
        },
        downstream: ['Message:Out'],
      },
      {
        id: 'IterationItem:Start',
        name: 'Start',
        parent: 'Iteration:It',
        downstream: ['StringTransform:Up'],
      },
      {
        id: 'StringTransform:Up',
        name: 'Up',
        parent: 'Iteration:It',
        params: { method: 'merge', script: '#{IterationItem:Start@index}={IterationItem:Start@item}' },
      },
      { id: 'Message:Out', name: 'Out', params: { content: ['{Iteration:It@upper}'] } },
    ],
    { _items: items },
  );
}

describe('Iteration', () => {
  it('runs the body once per element and collects the outputs in order', async () => {
    const run = runCanvas({
      dsl: iterationFlow(null),
      query: 'x',
      inputs: { items: { type: 'line', value: ['a', 'b'] } },
      taskId: 't',
      ports: fakePorts([]),
    });
    const events = await collect(run);
    expect(trail(events)).toEqual([
      'workflow_started',
      'node_started:begin',
      'node_finished:begin',
      'node_started:Iteration:It',
      'node_started:IterationItem:Start',
      'node_finished:IterationItem:Start',
      'node_started:StringTransform:Up',
      'node_finished:StringTransform:Up',
      'node_started:IterationItem:Start',
      'node_finished:IterationItem:Start',
      'node_started:StringTransform:Up',
      'node_finished:StringTransform:Up',
      'node_started:IterationItem:Start',
      'node_finished:IterationItem:Start',
      'node_finished:Iteration:It',
      'node_started:Message:Out',
      'message:"[\\"#0=a\\", \\"#1=b\\"]"',
      'message_end',
      'node_finished:Message:Out',
      'workflow_finished',
    ]);
    expect(finished(events, 'Iteration:It').outputs.upper).toEqual(['#0=a', '#1=b']);
  });

  it('never runs the body for an empty list; the outputs stay null', async () => {
    const events = await collect(
      runCanvas({
        dsl: iterationFlow(null),
        query: 'x',
        inputs: { items: { type: 'line', value: [] } },
        taskId: 't',
        ports: fakePorts([]),
      }),
    );
    expect(trail(events).filter((x) => x.includes('Up'))).toEqual([]);
    expect(finished(events, 'Iteration:It').outputs.upper).toBeUndefined();
  });

  it('errors when items_ref is not a list', async () => {
    const run = runCanvas({
      dsl: iterationFlow(null),
      query: 'x',
      inputs: { items: { type: 'line', value: 'abc' } },
      taskId: 't',
      ports: fakePorts([]),
    });
    const events = await collect(run);
    expect(finished(events, 'Iteration:It').error).toBe('begin@items must be an array, but its type is str');
    expect(trail(events).at(-1)).toBe('error:Each: begin@items must be an array, but its type is str');
  });
});

function loopFlow(loopParams: Record<string, unknown>, body: 'assign' | 'exit') {
  const bodyNodes =
    body === 'assign'
      ? [
          {
            id: 'VariableAssigner:Inc',
            name: 'Inc',
            parent: 'Loop:L',
            params: {
              variables: [
                { variable: 'Loop:L@count', operator: '+=', parameter: 1 },
                { variable: 'Loop:L@seen', operator: 'append', parameter: 'sys.query' },
              ],
            },
          },
        ]
      : [
          {
            id: 'Switch:Stop',
            name: 'Stop?',
            parent: 'Loop:L',
            params: {
              conditions: [
                {
                  logical_operator: 'and',
                  items: [{ cpn_id: 'Loop:L@count', operator: '≥', value: '2' }],
                  to: ['ExitLoop:X'],
                },
              ],
              end_cpn_ids: ['VariableAssigner:Inc'],
            },
            downstream: ['ExitLoop:X', 'VariableAssigner:Inc'],
          },
          { id: 'ExitLoop:X', name: 'Exit', parent: 'Loop:L' },
          {
            id: 'VariableAssigner:Inc',
            name: 'Inc',
            parent: 'Loop:L',
            params: { variables: [{ variable: 'Loop:L@count', operator: '+=', parameter: 1 }] },
          },
        ];
  return dsl([
    { id: 'begin', name: 'begin', downstream: ['Loop:L'] },
    {
      id: 'Loop:L',
      name: 'Repeat',
      params: {
        loop_variables: [
          { variable: 'count', type: 'number', input_mode: 'constant', value: 0 },
          { variable: 'seen', type: 'array<string>', input_mode: 'other' },
        ],
        ...loopParams,
      },
      downstream: ['Message:Out'],
    },
    { id: 'LoopItem:S', name: 'Start', parent: 'Loop:L', downstream: [bodyNodes[0].id] },
    ...bodyNodes,
    { id: 'Message:Out', name: 'Out', params: { content: ['count={Loop:L@count}'] } },
  ]);
}

describe('Loop', () => {
  it('repeats the body until the termination condition holds, checked before each body run', async () => {
    const run = runCanvas({
      dsl: loopFlow(
        {
          maximum_loop_count: 10,
          loop_termination_condition: [{ variable: 'Loop:L@count', operator: '≥', value: 3 }],
        },
        'assign',
      ),
      query: 'hi',
      taskId: 't',
      ports: fakePorts([]),
    });
    const events = await collect(run);
    const t = trail(events);
    expect(t.filter((x) => x === 'node_started:VariableAssigner:Inc')).toHaveLength(3);
    expect(t.filter((x) => x === 'node_finished:LoopItem:S')).toHaveLength(4);
    expect(t.slice(t.lastIndexOf('node_finished:LoopItem:S'))).toEqual([
      'node_finished:LoopItem:S',
      'node_finished:Loop:L',
      'node_started:Message:Out',
      'message:"count="',
      'message:"3"',
      'message_end',
      'node_finished:Message:Out',
      'workflow_finished',
    ]);
    expect(finished(events, 'Loop:L').outputs).toMatchObject({ count: 3, seen: ['hi', 'hi', 'hi'] });
  });

  it('stops at maximum_loop_count; with 0 the body never runs', async () => {
    const five = await collect(
      runCanvas({
        dsl: loopFlow({ maximum_loop_count: 5, logical_operator: 'or' }, 'assign'),
        query: 'q',
        taskId: 't',
        ports: fakePorts([]),
      }),
    );
    expect(finished(five, 'Loop:L').outputs.count).toBe(5);
    const none = await collect(
      runCanvas({
        dsl: loopFlow({ maximum_loop_count: 0 }, 'assign'),
        query: 'q',
        taskId: 't',
        ports: fakePorts([]),
      }),
    );
    expect(trail(none)).not.toContain('node_started:VariableAssigner:Inc');
    expect(finished(none, 'Loop:L').outputs.count).toBe(0);
  });

  it('ends at an empty "and" condition list at once', async () => {
    const events = await collect(
      runCanvas({
        dsl: loopFlow({ maximum_loop_count: 5 }, 'assign'),
        query: 'q',
        taskId: 't',
        ports: fakePorts([]),
      }),
    );
    expect(trail(events)).not.toContain('node_started:VariableAssigner:Inc');
  });

  it('ExitLoop leaves the loop, finishes the Loop node and continues downstream', async () => {
    const events = await collect(
      runCanvas({
        dsl: loopFlow({ maximum_loop_count: 10, logical_operator: 'or' }, 'exit'),
        query: 'q',
        taskId: 't',
        ports: fakePorts([]),
      }),
    );
    const t = trail(events);
    expect(t.slice(t.indexOf('node_started:ExitLoop:X'))).toEqual([
      'node_started:ExitLoop:X',
      'node_finished:ExitLoop:X',
      'node_finished:Loop:L',
      'node_started:Message:Out',
      'message:"count="',
      'message:"2"',
      'message_end',
      'node_finished:Message:Out',
      'workflow_finished',
    ]);
  });

  it('a runaway loop stops at the run loop limit with a message', async () => {
    const run = runCanvas({
      dsl: loopFlow({ maximum_loop_count: 100000, logical_operator: 'or' }, 'assign'),
      query: 'q',
      taskId: 't',
      ports: fakePorts([]),
      limits: { maxLoopRounds: 20 },
    });
    const events = await collect(run);
    expect(trail(events).at(-1)).toBe(
      'error:Start: Repeat reached the loop limit of 20 rounds and was stopped',
    );
    expect(trail(events).filter((x) => x === 'node_started:VariableAssigner:Inc')).toHaveLength(20);
  });

  it('a condition with an operator its type does not have is an error', async () => {
    const run = runCanvas({
      dsl: loopFlow(
        {
          maximum_loop_count: 3,
          loop_termination_condition: [{ variable: 'Loop:L@count', operator: 'contains', value: 1 }],
        },
        'assign',
      ),
      query: 'q',
      taskId: 't',
      ports: fakePorts([]),
    });
    const events = await collect(run);
    expect(trail(events).at(-1)).toBe('error:Start: Invalid operator: contains');
  });
});

describe('nested containers', () => {
  it('an Iteration inside a Loop hands control back to the Loop when its rounds are done', async () => {
    const d = dsl([
      { id: 'begin', name: 'begin', downstream: ['Loop:L'] },
      {
        id: 'Loop:L',
        name: 'Outer',
        params: {
          loop_variables: [{ variable: 'n', type: 'number', input_mode: 'constant', value: 0 }],
          maximum_loop_count: 2,
          logical_operator: 'or',
        },
        downstream: ['Message:Out'],
      },
      { id: 'LoopItem:S', name: 'Round', parent: 'Loop:L', downstream: ['Iteration:I'] },
      { id: 'Iteration:I', name: 'Inner', parent: 'Loop:L', params: { items_ref: 'sys.files' } },
      { id: 'IterationItem:T', name: 'Item', parent: 'Iteration:I', downstream: ['VariableAssigner:V'] },
      {
        id: 'VariableAssigner:V',
        name: 'Count',
        parent: 'Iteration:I',
        params: { variables: [{ variable: 'Loop:L@n', operator: '+=', parameter: 1 }] },
      },
      { id: 'Message:Out', name: 'Out', params: { content: ['n={Loop:L@n}'] } },
    ]);
    const events = await collect(
      runCanvas({ dsl: d, query: 'q', files: ['a', 'b', 'c'], taskId: 't', ports: fakePorts([]) }),
    );
    const t = trail(events);
    expect(t.filter((x) => x === 'node_finished:Iteration:I')).toHaveLength(2);
    expect(t.filter((x) => x === 'node_started:VariableAssigner:V')).toHaveLength(6);
    expect(finished(events, 'Loop:L').outputs.n).toBe(6);
    expect(t.slice(-5)).toEqual(
      [
        'node_started:Message:Out',
        'message:"n="',
        'message:"6"',
        'message_end',
        'node_finished:Message:Out',
        'workflow_finished',
      ].slice(-5),
    );
  });
});

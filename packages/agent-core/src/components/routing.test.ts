/** Categorize (§6.3) and Switch (§6.4). */
import { describe, expect, it } from 'vitest';
import { runCanvas } from '../runtime/run-canvas.js';
import { pickCategory } from './categorize.js';
import { switchOperator } from './conditions.js';
import { collect, dsl, finished, trail } from '../../test/helpers.js';
import { fakePorts, type Script } from '../../test/fakes.js';

const targets = [
  { id: 'Message:Sales', name: 'Sales', params: { content: ['sales'] } },
  { id: 'Message:Support', name: 'Support', params: { content: ['support'] } },
  { id: 'Message:Other', name: 'Other', params: { content: ['other'] } },
];

function categorizeFlow(history: unknown[] = []) {
  return dsl(
    [
      { id: 'begin', name: 'begin', downstream: ['Categorize:C'] },
      {
        id: 'Categorize:C',
        name: 'Intent',
        params: {
          llm_id: 'm@F',
          query: 'sys.query',
          message_history_window_size: 1,
          category_description: {
            sales: {
              description: 'Buying or pricing',
              examples: ['How much is it?', 'a\nb'],
              to: ['Message:Sales'],
            },
            support: { description: 'Problems', examples: [], to: ['Message:Support'] },
            other: { description: '', examples: [], to: ['Message:Other'] },
          },
        },
        downstream: ['Message:Sales', 'Message:Support', 'Message:Other'],
      },
      ...targets,
    ],
    { history },
  );
}

describe('Categorize', () => {
  it('prompts with names, descriptions and examples, then routes to the chosen category only', async () => {
    const ports = fakePorts([{ text: 'Support' }]);
    const run = runCanvas({
      dsl: categorizeFlow([
        ['user', 'hi'],
        ['assistant', { content: 'hello' }],
      ]),
      query: 'it crashes',
      taskId: 't',
      ports,
    });
    const events = await collect(run);
    expect(trail(events).slice(3)).toEqual([
      'node_started:Categorize:C',
      'node_finished:Categorize:C',
      'node_started:Message:Support',
      'message:"support"',
      'message_end',
      'node_finished:Message:Support',
      'workflow_finished',
    ]);
    expect(finished(events, 'Categorize:C').outputs).toMatchObject({
      category_name: 'support',
      _next: ['Message:Support'],
    });
    const [sys, user] = ports.models.requests[0].messages;
    expect(sys.content).toContain('- sales\n- support\n- other');
    expect(sys.content).toContain('## sales\nBuying or pricing');
    expect(sys.content).toContain('USER: "How much is it?" → sales\nUSER: "a b" → sales');
    // window 1: the last two history entries, this turn included, the last one being the query
    expect(user).toEqual({ role: 'user', content: 'ASSISTANT: "hello" | USER: "it crashes"' });
  });

  it('picks the most frequent name, the first on a tie, the last when none occurs', () => {
    const names = ['sales', 'support', 'other'];
    expect(pickCategory('support, definitely SUPPORT, maybe sales', names)).toBe('support');
    expect(pickCategory('sales or support', names)).toBe('sales');
    expect(pickCategory('no idea', names)).toBe('other');
  });

  it('raises on a model error', async () => {
    const run = runCanvas({
      dsl: categorizeFlow(),
      query: 'q',
      taskId: 't',
      ports: fakePorts([{ error: 'quota exceeded' }] as Script),
    });
    const events = await collect(run);
    expect(finished(events, 'Categorize:C').error).toBe('quota exceeded');
  });
});

function switchFlow(conditions: unknown[], inputs: Record<string, unknown>) {
  return {
    d: dsl([
      {
        id: 'begin',
        name: 'begin',
        params: { inputs: { n: { type: 'integer' }, s: { type: 'line' }, l: { type: 'line' } } },
        downstream: ['Switch:S'],
      },
      {
        id: 'Switch:S',
        name: 'Route',
        params: { conditions, end_cpn_ids: ['Message:Other'] },
        downstream: ['Message:Sales', 'Message:Support', 'Message:Other'],
      },
      ...targets,
    ]),
    inputs,
  };
}

describe('Switch', () => {
  it('takes the first condition that holds (and/or), else the else branch', async () => {
    const conditions = [
      {
        logical_operator: 'and',
        items: [
          { cpn_id: 'begin@n', operator: '>', value: '10' },
          { cpn_id: 'begin@s', operator: 'contains', value: 'BUY' },
        ],
        to: ['Message:Sales'],
      },
      {
        logical_operator: 'or',
        items: [
          { cpn_id: 'begin@s', operator: 'start with', value: 'help' },
          { cpn_id: 'begin@n', operator: '=', value: '3' },
        ],
        to: ['Message:Support'],
      },
    ];
    const cases: [number, string, string][] = [
      [11, 'I want to buy', 'Message:Sales'],
      [3, 'I want to buy', 'Message:Support'],
      [5, 'Help me', 'Message:Support'],
      [5, 'nothing', 'Message:Other'],
    ];
    for (const [n, s, expected] of cases) {
      const { d } = switchFlow(conditions, {});
      const events = await collect(
        runCanvas({
          dsl: d,
          query: 'q',
          inputs: { n: { type: 'integer', value: n }, s: { type: 'line', value: s } },
          taskId: 't',
          ports: fakePorts([]),
        }),
      );
      expect(finished(events, 'Switch:S').outputs._next).toEqual([expected]);
      expect(finished(events, 'Switch:S').outputs.next).toEqual([expected.split(':')[1]]);
    }
  });

  it('a condition whose items are all skipped holds in "and" mode, not in "or" mode', async () => {
    const run = async (op: string) => {
      const { d } = switchFlow(
        [{ logical_operator: op, items: [{ cpn_id: '', operator: '=' }], to: ['Message:Sales'] }],
        {},
      );
      return finished(
        await collect(runCanvas({ dsl: d, query: 'q', taskId: 't', ports: fakePorts([]) })),
        'Switch:S',
      ).outputs._next;
    };
    expect(await run('and')).toEqual(['Message:Sales']);
    expect(await run('or')).toEqual(['Message:Other']);
  });

  it('implements every SPEC §9 operator, plus in / not in', () => {
    expect(switchOperator('Hello World', 'contains', 'world')).toBe(true);
    expect(switchOperator('Hello', 'not contains', 'x')).toBe(true);
    expect(switchOperator('Hello', 'start with', 'he')).toBe(true);
    expect(switchOperator('Hello', 'end with', 'LO')).toBe(true);
    expect(switchOperator('', 'empty', '')).toBe(true);
    expect(switchOperator([], 'empty', '')).toBe(true);
    expect(switchOperator('x', 'not empty', '')).toBe(true);
    expect(switchOperator(5, '=', '5')).toBe(true);
    expect(switchOperator('5', '=', 5)).toBe(false);
    expect(switchOperator(5, '≠', '6')).toBe(true);
    expect(switchOperator(5, '>', '4.5')).toBe(true);
    expect(switchOperator('10', '<', '9')).toBe(false);
    expect(switchOperator(5, '≥', '5')).toBe(true);
    expect(switchOperator(5, '≤', '4')).toBe(false);
    expect(switchOperator('b', '>', 'a')).toBe(true);
    expect(switchOperator('red', 'in', 'red, green')).toBe(true);
    expect(switchOperator(['a', 'b'], 'in', 'b')).toBe(true);
    expect(switchOperator('blue', 'not in', 'red,green')).toBe(true);
    // the editor's labels (SPEC §9 names) work as the stored symbols do
    expect(switchOperator(5, 'ge', '5')).toBe(true);
    expect(switchOperator('abc', 'notContains', 'x')).toBe(true);
    expect(() => switchOperator(5, 'contains', '5')).toThrow(
      "The input of operator 'contains' must be a string",
    );
    expect(() => switchOperator('x', 'like', 'y')).toThrow('Not supported operator: like');
  });
});

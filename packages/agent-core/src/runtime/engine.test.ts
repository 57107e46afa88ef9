/** Control-flow rules of the batch loop (AGENTS.md §3), asserted as exact event sequences. */
import { describe, expect, it } from 'vitest';
import { runCanvas } from './run-canvas.js';
import { collect, dsl, finished, trail } from '../../test/helpers.js';
import { fakePorts, type Turn } from '../../test/fakes.js';

const llm = (prompt: string, extra: Record<string, unknown> = {}) => ({
  llm_id: 'm@F',
  sys_prompt: '',
  prompts: [{ role: 'user', content: prompt }],
  ...extra,
});

describe('batch loop', () => {
  it('runs a linear flow and writes history, sys.history and turns over two turns', async () => {
    const flow = dsl([
      { id: 'begin', name: 'begin', downstream: ['LLM:A'] },
      { id: 'LLM:A', name: 'Writer', params: llm('{sys.query}'), downstream: ['Message:M'] },
      { id: 'Message:M', name: 'Reply', params: { content: ['Answer: {LLM:A@content}'] } },
    ]);
    const ports = fakePorts([{ text: ['one'] }, { text: ['two'] }]);
    const first = runCanvas({ dsl: flow, query: 'q1', taskId: 't', ports });
    expect(trail(await collect(first))).toEqual([
      'workflow_started',
      'node_started:begin',
      'node_finished:begin',
      'node_started:LLM:A',
      'node_started:Message:M',
      'message:"Answer: "',
      'message:"one"',
      'message_end',
      'node_finished:LLM:A',
      'node_finished:Message:M',
      'workflow_finished',
    ]);
    const second = runCanvas({ dsl: first.dsl, query: 'q2', taskId: 't', ports });
    await collect(second);
    const d = second.dsl;
    expect(d.path).toEqual(['begin', 'LLM:A', 'Message:M', 'begin', 'LLM:A', 'Message:M']);
    expect(
      d.history.map(([r, c]) => [r, typeof c === 'string' ? c : (c as { content: string }).content]),
    ).toEqual([
      ['user', 'q1'],
      ['assistant', 'Answer: one'],
      ['user', 'q2'],
      ['assistant', 'Answer: two'],
    ]);
    expect(d.globals!['sys.conversation_turns']).toBe(2);
    expect((d.globals!['sys.history'] as string[])[0]).toBe('user: q1');
    expect((d.globals!['sys.history'] as string[])[1]).toMatch(/^assistant: \{.*"content": "Answer: one"/);
    // the second call saw the first turn as history (user, assistant content)
    const req = ports.models.requests[1];
    expect(req.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'q1'],
      ['assistant', 'Answer: one'],
      ['user', 'q2'],
    ]);
    expect(d.retrieval).toHaveLength(4);
  });

  it('runs a fan-out as one batch and post-processes it in path order', async () => {
    const flow = dsl([
      { id: 'begin', name: 'begin', downstream: ['LLM:A', 'LLM:B'] },
      { id: 'LLM:A', name: 'A', params: llm('a'), downstream: ['StringTransform:J'] },
      { id: 'LLM:B', name: 'B', params: llm('b'), downstream: ['StringTransform:J'] },
      {
        id: 'StringTransform:J',
        name: 'Join',
        params: { method: 'merge', script: '{LLM:A@content}+{LLM:B@content}' },
      },
    ]);
    // A answers slower than B: post-processing order stays A, B.
    const ports = fakePorts((req) =>
      req.messages.at(-1)!.content === 'a' ? { text: 'A', delayMs: 30 } : { text: 'B' },
    );
    const run = runCanvas({ dsl: flow, query: 'x', taskId: 't', ports });
    const events = await collect(run);
    expect(trail(events)).toEqual([
      'workflow_started',
      'node_started:begin',
      'node_finished:begin',
      'node_started:LLM:A',
      'node_started:LLM:B',
      'node_finished:LLM:A',
      'node_finished:LLM:B',
      // both appended J in the same batch: it runs once (duplicates only removed against the last entry)
      'node_started:StringTransform:J',
      'node_finished:StringTransform:J',
      'workflow_finished',
    ]);
    expect(finished(events, 'StringTransform:J').outputs.result).toBe('A+B');
  });

  it('runs at most 5 components of a batch at once', async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `LLM:P${i}`);
    const flow = dsl([
      { id: 'begin', name: 'begin', downstream: ids },
      ...ids.map((id, i) => ({ id, name: `P${i}`, params: llm(`p${i}`) })),
    ]);
    let running = 0;
    let peak = 0;
    const ports = fakePorts(() => {
      running++;
      peak = Math.max(peak, running);
      setTimeout(() => running--, 20);
      return { text: 'x', delayMs: 20 };
    });
    await collect(runCanvas({ dsl: flow, query: 'x', taskId: 't', ports }));
    expect(peak).toBe(5);
  });

  it('skips a component whose input elements refer to a component that has not run (skip rule)', async () => {
    const flow = dsl([
      { id: 'begin', name: 'begin', downstream: ['Switch:S'] },
      {
        id: 'Switch:S',
        name: 'Route',
        params: {
          conditions: [
            {
              logical_operator: 'and',
              items: [{ cpn_id: 'sys.query', operator: '=', value: 'a' }],
              to: ['Message:A'],
            },
          ],
          end_cpn_ids: ['Message:B'],
        },
        downstream: ['Message:A', 'Message:B'],
      },
      { id: 'Message:A', name: 'A', params: { content: ['went A'] }, downstream: ['Message:J'] },
      { id: 'Message:B', name: 'B', params: { content: ['went B'] }, downstream: ['Message:J'] },
      { id: 'Message:J', name: 'J', params: { content: ['{Message:A@content}'] } },
    ]);
    const a = await collect(runCanvas({ dsl: flow, query: 'a', taskId: 't', ports: fakePorts([]) }));
    expect(trail(a)).toContain('node_finished:Message:J');
    const b = runCanvas({ dsl: flow, query: 'b', taskId: 't', ports: fakePorts([]) });
    const events = await collect(b);
    expect(trail(events).slice(5)).toEqual([
      'node_started:Message:B',
      'message:"went B"',
      'message_end',
      'node_finished:Message:B',
      // J refers to Message:A, which did not run: started, never finished, removed from path
      'node_started:Message:J',
      'workflow_finished',
    ]);
    expect(b.dsl.path).toEqual(['begin', 'Switch:S', 'Message:B']);
  });

  it('routes an error through exception_goto and continues', async () => {
    const flow = dsl([
      { id: 'begin', name: 'begin', downstream: ['LLM:A'] },
      {
        id: 'LLM:A',
        name: 'A',
        params: llm('a', { exception_method: 'goto', exception_goto: ['Message:Fail'] }),
        downstream: ['Message:Ok'],
      },
      { id: 'Message:Ok', name: 'Ok', params: { content: ['{LLM:A@content}'] } },
      { id: 'Message:Fail', name: 'Fail', params: { content: ['Sorry, the model is down.'] } },
    ]);
    const run = runCanvas({
      dsl: flow,
      query: 'x',
      taskId: 't',
      ports: fakePorts([{ error: 'connection refused' }]),
    });
    const events = await collect(run);
    expect(trail(events)).toEqual([
      'workflow_started',
      'node_started:begin',
      'node_finished:begin',
      'node_started:LLM:A',
      'node_finished:LLM:A!',
      'node_started:Message:Fail',
      'message:"Sorry, the model is down."',
      'message_end',
      'node_finished:Message:Fail',
      'workflow_finished',
    ]);
    expect(finished(events, 'LLM:A').error).toBe('connection refused');
    expect((await run.outcome).status).toBe('finished');
  });

  it('turns an exception into the default value under "comment" (stage 1, streamed as the text)', async () => {
    const flow = dsl([
      { id: 'begin', name: 'begin', downstream: ['LLM:A'] },
      {
        id: 'LLM:A',
        name: 'A',
        params: llm('a', { exception_method: 'comment', exception_default_value: 'fallback text' }),
        downstream: ['Message:M'],
      },
      { id: 'Message:M', name: 'M', params: { content: ['{LLM:A@content}'] } },
    ]);
    const events = await collect(
      runCanvas({ dsl: flow, query: 'x', taskId: 't', ports: fakePorts([{ error: 'rate limited' }]) }),
    );
    expect(trail(events)).toEqual([
      'workflow_started',
      'node_started:begin',
      'node_finished:begin',
      'node_started:LLM:A',
      'node_started:Message:M',
      'message:"fallback text"',
      'message_end',
      'node_finished:LLM:A',
      'node_finished:Message:M',
      'workflow_finished',
    ]);
    expect(finished(events, 'LLM:A').error).toBeNull();
  });

  it('ends the run with node_finished(error) then an error event, no workflow_finished, on an unhandled error', async () => {
    const flow = dsl([
      { id: 'begin', name: 'begin', downstream: ['LLM:A'] },
      { id: 'LLM:A', name: 'Writer', params: llm('a'), downstream: ['Message:M'] },
      { id: 'Message:M', name: 'M', params: { content: ['{LLM:A@content}'] } },
    ]);
    const run = runCanvas({
      dsl: flow,
      query: 'x',
      taskId: 't',
      ports: fakePorts([{ text: ['partial'], error: 'model went away', failAfter: 1 }]),
    });
    const events = await collect(run);
    expect(trail(events)).toEqual([
      'workflow_started',
      'node_started:begin',
      'node_finished:begin',
      'node_started:LLM:A',
      'node_started:Message:M',
      'message:"partial"',
      'message_end',
      'node_finished:LLM:A!',
      'node_finished:Message:M',
      'error:Writer: model went away',
    ]);
    expect(events.at(-1)).toEqual({ code: 500, message: 'Writer: model went away', data: false });
    expect(await run.outcome).toMatchObject({ status: 'error', errorComponentId: 'LLM:A' });
    expect(run.dsl.history).toEqual([['user', 'x']]);
  });

  it('retries a failing model call max_retries times with delay_after_error between tries', async () => {
    const flow = dsl([
      { id: 'begin', name: 'begin', downstream: ['LLM:A'] },
      { id: 'LLM:A', name: 'A', params: llm('a', { max_retries: 2, delay_after_error: 1.5 }) },
    ]);
    const ports = fakePorts([{ error: '503' }, { error: '503' }, { text: 'third time' }]);
    const run = runCanvas({ dsl: flow, query: 'x', taskId: 't', ports });
    const events = await collect(run);
    expect(finished(events, 'LLM:A').outputs.content).toBe('third time');
    expect(ports.clock.sleeps).toEqual([1500, 1500]);
  });
});

describe('references to components that have not run', () => {
  it('render as "" (a component of an earlier turn that did not run in this one)', async () => {
    const flow = dsl([
      { id: 'begin', name: 'begin', downstream: ['Switch:S'] },
      {
        id: 'Switch:S',
        name: 'Route',
        params: {
          conditions: [
            {
              logical_operator: 'and',
              items: [{ cpn_id: 'sys.query', operator: '=', value: 'write' }],
              to: ['LLM:W'],
            },
          ],
          end_cpn_ids: ['Message:Echo'],
        },
        downstream: ['LLM:W', 'Message:Echo'],
      },
      { id: 'LLM:W', name: 'Writer', params: llm('write'), downstream: ['Message:Echo'] },
      { id: 'Message:Echo', name: 'Echo', params: { content: ['[{LLM:W@content}]'] } },
    ]);
    const ports = fakePorts([{ text: 'draft' }]);
    const first = runCanvas({ dsl: flow, query: 'write', taskId: 't', ports });
    await collect(first);
    const second = runCanvas({ dsl: first.dsl, query: 'other', taskId: 't', ports });
    const events = await collect(second);
    // LLM:W is in path from turn 1 (no skip), but its output was reset for this turn
    expect(finished(events, 'Message:Echo').outputs.content).toBe('[]');
  });
});

describe('cancel', () => {
  const flow = dsl([
    { id: 'begin', name: 'begin', downstream: ['LLM:A'] },
    { id: 'LLM:A', name: 'A', params: llm('a'), downstream: ['Message:M'] },
    { id: 'Message:M', name: 'M', params: { content: ['{LLM:A@content}'] } },
  ]);

  it('before starting: an error event only', async () => {
    const run = runCanvas({
      dsl: flow,
      query: 'x',
      taskId: 'T1',
      ports: fakePorts([]),
      isCancelled: () => true,
    });
    expect(await collect(run)).toEqual([
      { code: 500, message: 'Task T1 has been canceled before starting.', data: false },
    ]);
    expect((await run.outcome).status).toBe('cancelled');
  });

  it('at a batch start: error event after the last finished batch', async () => {
    let checks = 0;
    const run = runCanvas({
      dsl: flow,
      query: 'x',
      taskId: 'T2',
      ports: fakePorts([]),
      isCancelled: () => ++checks > 3,
    });
    const t = trail(await collect(run));
    expect(t[0]).toBe('workflow_started');
    expect(t.at(-1)).toBe('error:Task T2 has been canceled during batch execution.');
    expect(t).not.toContain('workflow_finished');
  });

  it('inside a component: the component errors and workflow_finished says the task was canceled', async () => {
    const ac = new AbortController();
    const ports = fakePorts(() => {
      setTimeout(() => ac.abort(), 5);
      return { text: ['a', 'b'], delayMs: 50 } as Turn;
    });
    const run = runCanvas({ dsl: flow, query: 'x', taskId: 'T3', ports, signal: ac.signal });
    const events = await collect(run);
    expect(trail(events).slice(-4)).toEqual([
      'message_end',
      'node_finished:LLM:A!',
      'node_finished:Message:M',
      'workflow_finished',
    ]);
    expect(finished(events, 'LLM:A').error).toBe('Task has been canceled');
    const last = events.at(-1)!;
    expect('event' in last && last.event === 'workflow_finished' && last.data.outputs).toBe(
      'Task has been canceled',
    );
    expect((await run.outcome).status).toBe('cancelled');
  });
});

describe('limits', () => {
  it('stops a runaway cycle at the loop limit with a message', async () => {
    // An exception route back to itself: every run fails and goes round again.
    const flow = dsl([
      { id: 'begin', name: 'begin', downstream: ['LLM:A'] },
      {
        id: 'LLM:A',
        name: 'Retrier',
        params: llm('a', { exception_method: 'goto', exception_goto: ['Concentrator:C'] }),
      },
      { id: 'Concentrator:C', name: 'Again', downstream: ['LLM:A'] },
    ]);
    const run = runCanvas({
      dsl: flow,
      query: 'x',
      taskId: 't',
      ports: fakePorts(() => ({ error: 'boom' })),
      limits: { loopLimit: 3 },
    });
    const events = await collect(run);
    const t = trail(events);
    expect(t.filter((x) => x === 'node_started:LLM:A')).toHaveLength(4);
    expect(t.at(-1)).toBe('error:Retrier: Retrier reached its loop limit of 3 runs; the run stops here');
  });

  it('stops a component at its time limit', async () => {
    const flow = dsl([
      { id: 'begin', name: 'begin', downstream: ['LLM:A'] },
      { id: 'LLM:A', name: 'Slow', params: llm('a') },
    ]);
    const run = runCanvas({
      dsl: flow,
      query: 'x',
      taskId: 't',
      ports: fakePorts([{ text: 'late', delayMs: 200 }]),
      limits: { componentTimeoutMs: 20 },
    });
    const events = await collect(run);
    expect(finished(events, 'LLM:A').error).toBe('Slow timed out after 0.02 s');
    expect((await run.outcome).status).toBe('error');
  });
});

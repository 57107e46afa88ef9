/** UserFillUp pause and resume (AGENTS.md §3.8): the state lives in the saved DSL between calls. */
import { describe, expect, it } from 'vitest';
import { isPaused, loadDsl } from '../index.js';
import { runCanvas } from './run-canvas.js';
import { answerText, collect, dsl, finished, trail } from '../../test/helpers.js';
import { fakePorts } from '../../test/fakes.js';

const flow = dsl([
  {
    id: 'begin',
    name: 'begin',
    params: { inputs: { colors: { name: 'Colors', type: 'line' } } },
    downstream: ['LLM:Draft'],
  },
  {
    id: 'LLM:Draft',
    name: 'Draft',
    params: { llm_id: 'm@F', prompts: [{ role: 'user', content: 'draft about {sys.query}' }] },
    downstream: ['UserFillUp:Ask'],
  },
  {
    id: 'UserFillUp:Ask',
    name: 'Ask',
    params: {
      enable_tips: true,
      tips: 'Draft: {LLM:Draft@content}. Pick from {begin@colors}',
      inputs: { color: { name: 'Color', type: 'options', optional: false, options: ['teal', 'red'] } },
    },
    downstream: ['Message:Done'],
  },
  {
    id: 'Message:Done',
    name: 'Done',
    params: { content: ['You picked {UserFillUp:Ask@color} for {LLM:Draft@content}'] },
  },
]);

describe('UserFillUp', () => {
  it('pauses with user_inputs, saves the frontier, and resumes from it on the next call', async () => {
    const ports = fakePorts([{ text: 'a poem' }]);
    const first = runCanvas({
      dsl: flow,
      query: 'the sea',
      inputs: { colors: { name: 'Colors', type: 'line', value: ['teal', 'red'] } },
      taskId: 't',
      ports,
    });
    const events = await collect(first);
    expect(trail(events)).toEqual([
      'workflow_started',
      'node_started:begin',
      'node_finished:begin',
      'node_started:LLM:Draft',
      'node_finished:LLM:Draft',
      'user_inputs',
    ]);
    const ui = events.at(-1)!;
    expect('event' in ui && ui.data).toEqual({
      inputs: { color: { name: 'Color', type: 'options', optional: false, options: ['teal', 'red'] } },
      tips: 'Draft: a poem. Pick from teal,red',
    });
    expect((await first.outcome).status).toBe('paused');
    const saved = JSON.parse(JSON.stringify(first.dsl));
    expect(saved.path).toEqual(['UserFillUp:Ask']);
    expect(saved.history).toEqual([['user', 'the sea']]);
    expect(isPaused(loadDsl(saved))).toBe(true);

    const second = runCanvas({
      dsl: saved,
      query: '',
      inputs: {
        color: { name: 'Color', type: 'options', optional: false, options: ['teal', 'red'], value: 'teal' },
      },
      taskId: 't',
      ports,
    });
    const resumed = await collect(second);
    expect(trail(resumed)).toEqual([
      'workflow_started',
      'node_started:UserFillUp:Ask',
      'node_finished:UserFillUp:Ask',
      'node_started:Message:Done',
      'message:"You picked "',
      'message:"teal"',
      'message:" for "',
      'message:"a poem"',
      'message_end',
      'node_finished:Message:Done',
      'workflow_finished',
    ]);
    // spaces around references are kept (RAGFlow's "You pickedteal" Quirk is not reproduced)
    expect(answerText(resumed)).toBe('You picked teal for a poem');
    expect(finished(resumed, 'UserFillUp:Ask').outputs.color).toBe('teal');
    const d = second.dsl;
    expect(d.globals!['sys.query']).toBe('the sea');
    expect(d.globals!['sys.conversation_turns']).toBe(2);
    expect(d.history.map((h) => h[0])).toEqual(['user', 'user', 'assistant']);
    expect(d.path).toEqual(['UserFillUp:Ask', 'Message:Done']);
    expect(isPaused(d)).toBe(false);
    expect(ports.models.requests).toHaveLength(1);
  });
});

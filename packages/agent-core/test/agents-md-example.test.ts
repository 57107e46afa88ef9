/**
 * The complete DSL of AGENTS.md §2.2 (RAGFlow v0.24 template image_lingo.json, exactly as saved) loads
 * unchanged and runs: Begin → Agent (vision model, streamed) → Message.
 */
import { describe, expect, it } from 'vitest';
import { loadDsl, runCanvas, validateDsl } from '../src/index.js';
import example from './fixtures/image_lingo.json' with { type: 'json' };
import { answerText, collect, finished, trail } from './helpers.js';
import { fakePorts, FakeStorage } from './fakes.js';

describe('AGENTS.md §2.2 example DSL', () => {
  it('loads without changes to what was saved and validates clean', () => {
    const dsl = loadDsl(example.dsl);
    expect(validateDsl(dsl)).toEqual([]);
    expect(dsl.graph).toEqual(example.dsl.graph);
    expect(Object.keys(dsl.components).sort()).toEqual([
      'Agent:CoolPandasCrash',
      'Message:CurlyApplesRelate',
      'begin',
    ]);
    expect(dsl.components['Agent:CoolPandasCrash'].obj.params).toEqual(
      example.dsl.components['Agent:CoolPandasCrash'].obj.params,
    );
    // §2.1: globals without sys.history gain it
    expect(dsl.globals?.['sys.history']).toEqual([]);
  });

  it('runs unchanged: streamed answer through the Message, deferred Agent finish, state written back', async () => {
    const ports = fakePorts([{ text: ['Bonjour', ' means', ' hello.'] }], { storage: new FakeStorage() });
    const run = runCanvas({
      dsl: example.dsl,
      query: 'translate this',
      files: [{ id: 'f1', name: 'menu.png', mime_type: 'image/png' }],
      taskId: 'task-1',
      ports,
    });
    const events = await collect(run);
    expect(trail(events)).toEqual([
      'workflow_started',
      'node_started:begin',
      'node_finished:begin',
      'node_started:Agent:CoolPandasCrash',
      'node_started:Message:CurlyApplesRelate',
      'message:"Bonjour"',
      'message:" means"',
      'message:" hello."',
      'message_end',
      'node_finished:Agent:CoolPandasCrash',
      'node_finished:Message:CurlyApplesRelate',
      'workflow_finished',
    ]);
    expect(answerText(events)).toBe('Bonjour means hello.');
    const outcome = await run.outcome;
    expect(outcome.status).toBe('finished');

    // the vision model was asked for (llm_filter image2text, visual_files_var sys.files)
    expect(ports.models.calls).toEqual([{ llmId: 'qwen-vl-plus@Tongyi-Qianwen', role: 'image2text' }]);
    const req = ports.models.requests[0];
    expect(req.messages[0]).toMatchObject({ role: 'system' });
    expect(req.messages[0].content.startsWith('You are a multilingual translation assistant')).toBe(true);
    expect(req.messages.at(-1)).toEqual({
      role: 'user',
      content: 'The user query is translate this\n\n\n',
      images: ['data:image/png;base64,AAAA'],
    });
    // temperature is enabled (0.1); the other settings are off
    expect(req.options).toEqual({ temperature: 0.1 });

    expect(finished(events, 'Agent:CoolPandasCrash').outputs.content).toBe('Bonjour means hello.');
    expect(finished(events, 'Message:CurlyApplesRelate').outputs.content).toBe('Bonjour means hello.');
    const wf = events.at(-1)!;
    expect('event' in wf && wf.event === 'workflow_finished' && wf.data.outputs).toMatchObject({
      content: 'Bonjour means hello.',
    });

    const saved = run.dsl;
    expect(saved.path).toEqual(['begin', 'Agent:CoolPandasCrash', 'Message:CurlyApplesRelate']);
    expect(saved.history).toEqual([
      ['user', 'translate this'],
      ['assistant', expect.objectContaining({ content: 'Bonjour means hello.' })],
    ]);
    expect(saved.globals).toMatchObject({
      'sys.query': 'translate this',
      'sys.conversation_turns': 1,
      'sys.files': ['data:image/png;base64,AAAA'],
    });
    expect(saved.retrieval).toEqual([
      { chunks: [], doc_aggs: [] },
      { chunks: {}, doc_aggs: {} },
    ]);
    expect(saved.task_id).toBe('task-1');
    expect(
      (saved.components['Agent:CoolPandasCrash'].obj.params.outputs as Record<string, { value: unknown }>)
        .content.value,
    ).toBe('Bonjour means hello.');
    expect(saved.graph).toEqual(example.dsl.graph);
    // the caller's object is untouched
    expect(example.dsl.path).toEqual([]);
  });
});

/** Loading tolerates what saved DSLs and RAGFlow templates contain (AGENTS.md §2.1). */
import { describe, expect, it } from 'vitest';
import { loadDsl, parseComponentParams, resetDsl } from '../index.js';

describe('loadDsl', () => {
  it('reads missing keys as empty and fills the five sys globals', () => {
    const d = loadDsl({ components: { begin: { obj: { component_name: 'Begin', params: {} } } } });
    expect(d.history).toEqual([]);
    expect(d.path).toEqual([]);
    expect(d.retrieval).toEqual([]);
    expect(d.globals).toEqual({
      'sys.query': '',
      'sys.user_id': '',
      'sys.conversation_turns': 0,
      'sys.files': [],
      'sys.history': [],
    });
    expect(d.components.begin.downstream).toEqual([]);
  });

  it('accepts variables/memory/task_id null and mirrors conversation variables into env.*', () => {
    const d = loadDsl({
      components: {},
      variables: {
        tone: { name: 'tone', type: 'string', value: 'formal' },
        n: { name: 'n', type: 'number' },
      },
      memory: null,
      task_id: null,
      globals: { 'sys.query': 'kept' },
    });
    expect(d.globals).toEqual({ 'sys.query': 'kept', 'sys.history': [], 'env.tone': 'formal', 'env.n': 0 });
    expect(d.memory).toBeNull();
    const v = loadDsl({ components: {}, variables: null });
    expect(v.variables).toBeNull();
  });

  it('coerces LLM numbers stored as strings when params are read, keeping the saved text', () => {
    const raw = {
      components: {
        'LLM:A': {
          obj: { component_name: 'LLM', params: { llm_id: 'm', temperature: '0.1', max_tokens: '256' } },
        },
      },
    };
    const d = loadDsl(raw);
    expect(d.components['LLM:A'].obj.params.temperature).toBe('0.1');
    const p = parseComponentParams('LLM', d.components['LLM:A'].obj.params);
    expect(p.ok && p.params.temperature).toBe(0.1);
    expect(p.ok && p.params.max_tokens).toBe(256);
    expect(p.ok && p.params.prompts).toEqual([{ role: 'user', content: '{sys.query}' }]);
  });

  it('keeps unknown keys everywhere', () => {
    const d = loadDsl({
      components: {},
      extra: { a: 1 },
      graph: { nodes: [{ id: 'n', data: { x: 1 }, custom: true }], edges: [] },
    });
    expect((d as Record<string, unknown>).extra).toEqual({ a: 1 });
    expect(d.graph!.nodes[0]).toEqual({ id: 'n', data: { x: 1 }, custom: true });
  });

  it('accepts JSON text', () => {
    expect(loadDsl('{"components":{}}').components).toEqual({});
  });
});

describe('resetDsl (§3.13)', () => {
  it('clears run state and empties globals by type', () => {
    const d = loadDsl({
      components: {
        'Message:M': {
          obj: {
            component_name: 'Message',
            params: { content: ['x'], outputs: { content: { type: 'str', value: 'old' } } },
          },
        },
      },
      globals: {
        'sys.query': 'q',
        'sys.user_id': 'u',
        'sys.conversation_turns': 3,
        'sys.files': ['f'],
        'sys.history': ['h'],
        'env.tone': 'loud',
      },
      variables: { tone: { name: 'tone', type: 'string', value: 'loud' } },
      history: [['user', 'q']],
      path: ['begin'],
      retrieval: [{ chunks: [], doc_aggs: [] }],
      messages: ['kept'],
    });
    const r = resetDsl(d);
    expect(r.path).toEqual([]);
    expect(r.history).toEqual([]);
    expect(r.retrieval).toEqual([]);
    expect(r.memory).toEqual([]);
    expect(r.messages).toEqual(['kept']);
    expect(r.globals).toEqual({
      'sys.query': '',
      'sys.user_id': '',
      'sys.conversation_turns': 0,
      'sys.files': [],
      'sys.history': [],
      'env.tone': '',
    });
    expect(r.variables!.tone.value).toBe('');
    expect(
      (r.components['Message:M'].obj.params.outputs as { content: { value: unknown } }).content.value,
    ).toBeNull();
    expect(d.path).toEqual(['begin']);
  });
});

describe('fast load path', () => {
  it('gives what the zod schema gives, for every template and for tolerant inputs', async () => {
    const { loadTemplates } = await import('../templates.js');
    const { fastNormalise, copyForRun } = await import('./normalise.js');
    const { dslSchema } = await import('./schema.js');
    const inputs: Record<string, unknown>[] = [
      ...loadTemplates().map((t) => t.dsl as unknown as Record<string, unknown>),
      {
        components: { a: { obj: { component_name: 'Begin', params: null }, downstream: null } },
        variables: null,
        memory: null,
        task_id: null,
      },
      {},
    ];
    for (const raw of inputs) {
      const fast = fastNormalise(copyForRun(raw));
      expect(fast).not.toBeNull();
      expect(fast).toEqual(dslSchema.parse(copyForRun(raw)));
    }
  });

  it('leaves anything unusual to the schema, which names the problem', async () => {
    const { fastNormalise } = await import('./normalise.js');
    expect(fastNormalise({ components: { a: { obj: { component_name: 3 } } } })).toBeNull();
    expect(fastNormalise({ path: [1] })).toBeNull();
    expect(() => loadDsl({ history: ['just text'] })).toThrow('history.0:');
  });
});

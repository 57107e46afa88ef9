import { describe, expect, it } from 'vitest';
import { loadDsl, validateDsl, type Dsl } from '@lectern/agent-core/editor';
import { dslToFlow } from './dsl-to-flow';
import { flowToDsl } from './flow-to-dsl';
import { createNodes, newEdge } from './node-factory';
import type { FlowGraph } from './flow-types';

/** A DSL as an API client writes it: components only, no graph. */
const componentsOnly = (): Dsl =>
  loadDsl({
    components: {
      begin: {
        obj: { component_name: 'Begin', params: { prologue: 'Hi' } },
        downstream: ['Categorize:A'],
        upstream: [],
      },
      'Categorize:A': {
        obj: {
          component_name: 'Categorize',
          params: {
            llm_id: 'm@P',
            query: 'sys.query',
            category_description: {
              greet: { description: 'hello', examples: ['hi'], to: ['Message:G'] },
              other: { description: 'else', examples: [], to: ['Switch:S'] },
            },
          },
        },
        downstream: ['Message:G', 'Switch:S'],
        upstream: ['begin'],
      },
      'Switch:S': {
        obj: {
          component_name: 'Switch',
          params: {
            conditions: [
              {
                logical_operator: 'and',
                items: [{ cpn_id: 'sys.query', operator: 'contains', value: 'x' }],
                to: ['Message:G'],
              },
            ],
            end_cpn_ids: ['Message:E'],
          },
        },
        downstream: ['Message:G', 'Message:E'],
        upstream: ['Categorize:A'],
      },
      'Message:G': {
        obj: { component_name: 'Message', params: { content: ['hello'] } },
        downstream: [],
        upstream: [],
      },
      'Message:E': {
        obj: { component_name: 'Message', params: { content: ['else'] } },
        downstream: [],
        upstream: [],
      },
    },
  });

describe('DSL → React Flow graph', () => {
  it('builds nodes, branch handles and categorize items from components when there is no graph', () => {
    const { nodes, edges } = dslToFlow(componentsOnly());
    expect(nodes.map((n) => [n.id, n.type])).toEqual([
      ['begin', 'beginNode'],
      ['Categorize:A', 'categorizeNode'],
      ['Switch:S', 'switchNode'],
      ['Message:G', 'messageNode'],
      ['Message:E', 'messageNode'],
    ]);
    const handles = edges.map((e) => `${e.source}/${e.sourceHandle}->${e.target}`).sort();
    expect(handles).toEqual([
      'Categorize:A/greet->Message:G',
      'Categorize:A/other->Switch:S',
      'Switch:S/Case 1->Message:G',
      'Switch:S/end_cpn_ids->Message:E',
      'begin/start->Categorize:A',
    ]);
    const cat = nodes.find((n) => n.id === 'Categorize:A');
    expect(cat?.data.form.items).toEqual([
      { name: 'greet', description: 'hello', examples: [{ value: 'hi' }], uuid: 'greet' },
      { name: 'other', description: 'else', examples: [], uuid: 'other' },
    ]);
    // laid out by depth from begin
    expect(nodes.find((n) => n.id === 'Switch:S')?.position.x).toBeGreaterThan(cat?.position.x ?? 0);
  });

  it('round-trips: the components rebuilt from the graph are the ones it came from', () => {
    const dsl = componentsOnly();
    const back = flowToDsl(dsl, dslToFlow(dsl));
    for (const [id, c] of Object.entries(dsl.components)) {
      expect(back.components[id].obj).toEqual(c.obj);
      expect([...back.components[id].downstream].sort()).toEqual([...c.downstream].sort());
    }
    expect(back.components['Switch:S'].upstream).toEqual(['Categorize:A']);
    expect(validateDsl(back)).toEqual([]);
    // and the graph is saved, so the next load takes it as it is
    const again = dslToFlow(back);
    expect(again.nodes.map((n) => n.id)).toEqual(dslToFlow(dsl).nodes.map((n) => n.id));
  });
});

describe('React Flow graph → DSL (AGENTS.md §2.6)', () => {
  const base = loadDsl({ components: {}, history: [['user', 'q']], globals: { 'sys.query': 'q' } });

  it('keeps Switch targets in step with its Case/else edges and builds downstream from edges', () => {
    const graph: FlowGraph = {
      nodes: [
        {
          id: 'begin',
          position: { x: 0, y: 0 },
          data: {
            label: 'Begin',
            name: 'begin',
            form: { inputs: [{ key: 'lang', name: 'Language', type: 'line', optional: false }] },
          },
        },
        {
          id: 'Switch:S',
          position: { x: 0, y: 0 },
          data: {
            label: 'Switch',
            name: 'sw',
            form: {
              conditions: [
                { items: [], to: ['stale'] },
                { items: [], to: [] },
              ],
              end_cpn_ids: [],
            },
          },
        },
        {
          id: 'Message:A',
          position: { x: 0, y: 0 },
          data: { label: 'Message', name: 'a', form: { content: ['A'] } },
        },
        {
          id: 'Message:B',
          position: { x: 0, y: 0 },
          data: { label: 'Message', name: 'b', form: { content: ['B'] } },
        },
        {
          id: 'Note:N',
          type: 'noteNode',
          position: { x: 0, y: 0 },
          data: { label: 'Note', name: 'n', form: { text: 'x' } },
        },
      ],
      edges: [
        newEdge('begin', 'start', 'Switch:S'),
        newEdge('Switch:S', 'Case 2', 'Message:A'),
        newEdge('Switch:S', 'end_cpn_ids', 'Message:B'),
      ],
    };
    const dsl = flowToDsl(base, graph);
    const sw = dsl.components['Switch:S'].obj.params as {
      conditions: { to: string[] }[];
      end_cpn_ids: string[];
    };
    expect(sw.conditions.map((c) => c.to)).toEqual([[], ['Message:A']]);
    expect(sw.end_cpn_ids).toEqual(['Message:B']);
    expect(dsl.components['Switch:S'].downstream).toEqual(['Message:A', 'Message:B']);
    expect(dsl.components.begin.obj.params.inputs).toEqual({
      lang: { name: 'Language', type: 'line', optional: false },
    });
    expect(dsl.components['Note:N']).toBeUndefined();
    expect(dsl.graph?.nodes).toHaveLength(5);
    expect(dsl.history).toEqual([['user', 'q']]);
  });

  it('folds sub-agents into the parent Agent and excludes tool/exception edges from downstream', () => {
    const graph: FlowGraph = {
      nodes: [
        {
          id: 'Agent:P',
          position: { x: 0, y: 0 },
          data: {
            label: 'Agent',
            name: 'lead',
            form: { llm_id: 'm', tools: [{ component_name: 'Retrieval', params: {} }] },
          },
        },
        {
          id: 'Agent:C',
          position: { x: 0, y: 0 },
          data: { label: 'Agent', name: 'helper', form: { llm_id: 'm', sys_prompt: 'help' } },
        },
        {
          id: 'Message:M',
          position: { x: 0, y: 0 },
          data: { label: 'Message', name: 'm', form: { content: ['x'] } },
        },
        {
          id: 'Message:X',
          position: { x: 0, y: 0 },
          data: { label: 'Message', name: 'x', form: { content: ['oops'] } },
        },
      ],
      edges: [
        newEdge('Agent:P', 'agentBottom', 'Agent:C', 'agentTop'),
        newEdge('Agent:P', 'start', 'Message:M'),
        newEdge('Agent:P', 'agentException', 'Message:X'),
      ],
    };
    const dsl = flowToDsl(base, graph);
    expect(Object.keys(dsl.components).sort()).toEqual(['Agent:P', 'Message:M', 'Message:X']);
    const p = dsl.components['Agent:P'];
    expect(p.downstream).toEqual(['Message:M']);
    expect(p.obj.params.exception_goto).toEqual(['Message:X']);
    expect(p.obj.params.tools).toEqual([
      { component_name: 'Retrieval', params: {} },
      {
        component_name: 'Agent',
        id: 'Agent:C',
        name: 'helper',
        params: { llm_id: 'm', sys_prompt: 'help', tools: [], exception_goto: [] },
      },
    ]);
  });

  it('a Loop created from the palette is a container with its start node; children carry parent_id', () => {
    const [loop, start] = createNodes({
      operator: 'Loop',
      position: { x: 0, y: 0 },
      existing: [],
      random: () => 0,
    });
    expect(loop.data.name).toBe('Loop_0');
    expect(start.data.label).toBe('LoopItem');
    expect(start.parentId).toBe(loop.id);
    loop.data.form.loop_variables = [{ variable: 'count', type: 'number', input_mode: 'constant', value: 0 }];
    const dsl = flowToDsl(base, { nodes: [loop, start], edges: [] });
    expect(dsl.components[start.id].parent_id).toBe(loop.id);
    expect(dsl.components[loop.id].obj.params.outputs).toEqual({ count: { type: 'number', value: '' } });
  });

  it('Categorize items become category_description with the targets of each item handle', () => {
    const graph: FlowGraph = {
      nodes: [
        {
          id: 'Categorize:C',
          position: { x: 0, y: 0 },
          data: {
            label: 'Categorize',
            name: 'c',
            form: {
              items: [
                { name: 'yes', description: 'd', examples: [{ value: 'e' }, { value: '' }], uuid: 'u1' },
              ],
            },
          },
        },
        {
          id: 'Message:Y',
          position: { x: 0, y: 0 },
          data: { label: 'Message', name: 'y', form: { content: ['Y'] } },
        },
      ],
      edges: [newEdge('Categorize:C', 'u1', 'Message:Y')],
    };
    const params = flowToDsl(base, graph).components['Categorize:C'].obj.params;
    expect(params.items).toBeUndefined();
    expect(params.category_description).toEqual({
      yes: { description: 'd', examples: ['e'], to: ['Message:Y'] },
    });
  });
});

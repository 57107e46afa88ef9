/** Malformed DSLs give errors that name the component (issue 14 "Bad input"). */
import { describe, expect, it } from 'vitest';
import { DslError, formatIssue, loadDsl, runCanvas, validateDsl } from '../index.js';
import { dsl } from '../../test/helpers.js';
import { fakePorts } from '../../test/fakes.js';

const messages = (raw: unknown) => validateDsl(loadDsl(raw)).map(formatIssue);

const ok = () =>
  dsl([
    { id: 'begin', name: 'begin', downstream: ['Agent:A'] },
    { id: 'Agent:A', name: 'Writer', params: { llm_id: 'm@F' }, downstream: ['Message:M'] },
    { id: 'Message:M', name: 'Reply', params: { content: ['{Agent:A@content}'] } },
  ]);

describe('validateDsl', () => {
  it('accepts a well-formed DSL', () => {
    expect(messages(ok())).toEqual([]);
  });

  it('names an unknown component', () => {
    const d = ok();
    (d.components['Agent:A'] as { obj: { component_name: string } }).obj.component_name = 'Teleport';
    expect(messages(d)).toContain("Writer: unknown component 'Teleport'");
  });

  it('names the component of a dangling edge, branch or exception route', () => {
    const d = ok();
    (d.components['Agent:A'] as { downstream: string[] }).downstream.push('Message:Gone');
    const c = d.components['Agent:A'] as { obj: { params: Record<string, unknown> } };
    c.obj.params.exception_method = 'goto';
    c.obj.params.exception_goto = ['Message:Nowhere'];
    d.graph.edges.push({
      id: 'e',
      source: 'Agent:A',
      sourceHandle: 'start',
      target: 'Note:X',
      targetHandle: 'end',
    });
    expect(messages(d)).toEqual([
      "Writer: its edge leads to 'Message:Gone', which does not exist",
      "Writer: its exception route leads to 'Message:Nowhere', which does not exist",
      "Writer: its edge leads to 'Note:X', which is not on the canvas",
    ]);
  });

  it('finds a cycle without a Loop and names its components', () => {
    const d = ok();
    (d.components['Message:M'] as { downstream: string[] }).downstream.push('Agent:A');
    expect(messages(d)).toEqual(['Writer: cycle without a Loop: Writer → Reply → Writer']);
  });

  it('requires begin', () => {
    const d = ok();
    delete (d.components as Record<string, unknown>).begin;
    d.graph.nodes = d.graph.nodes.filter((n) => n.id !== 'begin');
    d.graph.edges = d.graph.edges.filter((e) => e.source !== 'begin');
    expect(messages(d)).toEqual(['The DSL has no begin component (id "begin")']);
  });

  it('names references to unknown components, outputs and variables', () => {
    const d = ok();
    (d.components['Message:M'] as { obj: { params: Record<string, unknown> } }).obj.params.content = [
      '{Agent:A@answer} {Agent:Ghost@content} {env.missing} {sys.query} {Agent:A@structured.title}',
    ];
    expect(messages(d)).toEqual([
      "Reply: refers to {Agent:A@answer}, but Writer has no output 'answer'",
      "Reply: refers to {Agent:Ghost@content}, but component 'Agent:Ghost' does not exist",
      'Reply: refers to {env.missing}, but there is no such variable',
    ]);
  });

  it('checks bare references in variable-picking fields', () => {
    const d = dsl([
      { id: 'begin', name: 'begin', downstream: ['Switch:S'] },
      {
        id: 'Switch:S',
        name: 'Route',
        params: {
          conditions: [{ items: [{ cpn_id: 'Agent:X@content', operator: '=' }], to: ['Message:M'] }],
          end_cpn_ids: ['Message:M'],
        },
        downstream: ['Message:M'],
      },
      { id: 'Message:M', name: 'Reply', params: { content: ['hi'] } },
    ]);
    expect(messages(d)).toEqual([
      "Route: refers to {Agent:X@content}, but component 'Agent:X' does not exist",
    ]);
  });

  it("runs each component's check and names it", () => {
    const d = dsl([
      { id: 'begin', name: 'begin', downstream: ['Categorize:C', 'Message:M'] },
      {
        id: 'Categorize:C',
        name: 'Intent',
        params: { llm_id: 'm@F', category_description: { sales: { description: '', to: [] } } },
      },
      { id: 'Message:M', name: 'Reply', params: { content: [''] } },
      { id: 'Agent:T', name: 'Hot', params: { llm_id: '', temperature: 1.5 } },
    ]);
    expect(messages(d)).toEqual([
      "Intent: [Categorize] 'To' of category sales can not be empty",
      'Reply: [Message] Content must not be empty',
      'Hot: llm_id (the model) is required',
      'Hot: temperature must be between 0 and 1',
    ]);
  });

  it('checks container structure', () => {
    const d = dsl([
      { id: 'begin', name: 'begin', downstream: ['Iteration:I'] },
      { id: 'Iteration:I', name: 'Each', params: { items_ref: 'sys.files' } },
      { id: 'ExitLoop:X', name: 'Out', parent: 'Iteration:I' },
    ]);
    expect(messages(d)).toEqual([
      'Each: an Iteration needs exactly one IterationItem inside it (found 0)',
      'Out: ExitLoop must be inside a Loop',
    ]);
  });

  it('requires non-empty, unique component names (SPEC §5)', () => {
    const d = ok();
    d.graph.nodes[2].data.name = 'Writer';
    expect(messages(d)).toEqual([
      "Writer: the component name is also used by 'Agent:A'; names must be unique",
    ]);
  });

  it('runCanvas refuses a malformed DSL before any event, with the same messages', () => {
    const d = ok();
    (d.components['Agent:A'] as { downstream: string[] }).downstream = ['Message:Gone'];
    expect(() => runCanvas({ dsl: d, taskId: 't', ports: fakePorts([]) })).toThrow(DslError);
    expect(() => runCanvas({ dsl: d, taskId: 't', ports: fakePorts([]) })).toThrow(
      "Writer: its edge leads to 'Message:Gone', which does not exist",
    );
  });

  it('answers from memory only while the DSL is unchanged', () => {
    const d = loadDsl(ok());
    expect(validateDsl(d)).toEqual([]);
    expect(validateDsl(d)).toEqual([]);
    (d.components['Message:M'].obj.params as { content: string[] }).content = ['{Agent:A@nope}'];
    expect(validateDsl(d).map(formatIssue)).toEqual([
      "Reply: refers to {Agent:A@nope}, but Writer has no output 'nope'",
    ]);
    d.graph!.nodes[1].data!.name = 'Author';
    expect(validateDsl(d).map(formatIssue)).toEqual([
      "Reply: refers to {Agent:A@nope}, but Author has no output 'nope'",
    ]);
  });

  it('loadDsl reports schema problems by component', () => {
    expect(() => loadDsl('{nope')).toThrow('The DSL is not valid JSON');
    expect(() => loadDsl({ components: { 'Agent:A': { obj: { params: {} } } } })).toThrow(
      'Agent:A: obj.component_name:',
    );
  });
});

/** VariableAssigner, VariableAggregator, StringTransform, DataOperations, ListOperations (§6.9–6.13). */
import { describe, expect, it } from 'vitest';
import { runCanvas } from '../runtime/run-canvas.js';
import { collect, dsl, finished, type NodeSpec } from '../../test/helpers.js';
import { fakePorts } from '../../test/fakes.js';

const BEGIN_INPUTS = {
  obj: { type: 'line' },
  objs: { type: 'line' },
  list: { type: 'line' },
  text: { type: 'line' },
  n: { type: 'integer' },
};

async function one(node: NodeSpec, values: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const inputs = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { type: 'line', value: v }]));
  const d = dsl(
    [{ id: 'begin', name: 'begin', params: { inputs: BEGIN_INPUTS }, downstream: [node.id] }, node],
    extra,
  );
  const run = runCanvas({ dsl: d, query: 'the query', inputs, taskId: 't', ports: fakePorts([]) });
  const events = await collect(run);
  return { out: finished(events, node.id).outputs, err: finished(events, node.id).error, run };
}

describe('VariableAssigner', () => {
  it('applies every operator and writes env, sys and component outputs', async () => {
    const node = {
      id: 'VariableAssigner:V',
      name: 'Assign',
      params: {
        variables: [
          { variable: 'env.count', operator: '+=', parameter: 2 },
          { variable: 'env.tags', operator: 'append', parameter: 'sys.query' },
          { variable: 'env.tags', operator: 'extend', parameter: 'begin@list' },
          { variable: 'env.tags', operator: 'remove_first' },
          { variable: 'env.title', operator: 'set', parameter: 'About {sys.query}' },
          { variable: 'env.copy', operator: 'overwrite', parameter: 'begin@obj' },
          { variable: 'env.gone', operator: 'clear' },
          { variable: 'env.count2', operator: '/=', parameter: 0 },
          { variable: 'env.flag', operator: '*=', parameter: 2 },
          { variable: 'env.title2', operator: 'append', parameter: 'sys.query' },
          { variable: 'sys.query', operator: 'overwrite', parameter: 'begin@text' },
          { variable: 'env.odd', operator: 'frobnicate', parameter: 1 },
        ],
      },
    };
    const variables = {
      count: { name: 'count', type: 'number', value: 1 },
      tags: { name: 'tags', type: 'array<string>', value: ['x'] },
      title: { name: 'title', type: 'string', value: '' },
      copy: { name: 'copy', type: 'object', value: {} },
      gone: { name: 'gone', type: 'array<string>', value: ['a'] },
      count2: { name: 'count2', type: 'number', value: 4 },
      flag: { name: 'flag', type: 'boolean', value: true },
      title2: { name: 'title2', type: 'string', value: 'abc' },
      odd: { name: 'odd', type: 'string', value: 'z' },
    };
    const { run } = await one(node, { list: ['y', 'z'], obj: { a: 1 }, text: 'rewritten' }, { variables });
    expect(run.dsl.globals).toMatchObject({
      'env.count': 3,
      'env.tags': ['the query', 'y', 'z'],
      'env.title': 'About the query',
      'env.copy': { a: 1 },
      'env.gone': [],
      'env.count2': 'ERROR:DIVIDE_BY_ZERO',
      'env.flag': 'ERROR:VARIABLE_NOT_NUMBER or PARAMETER_NOT_NUMBER',
      'env.title2': 'ERROR:VARIABLE_NOT_LIST',
      'sys.query': 'rewritten',
      'env.odd': null,
    });
  });
});

describe('VariableAggregator', () => {
  it('takes per group the first variable with a truthy value', async () => {
    const { out } = await one(
      {
        id: 'VariableAggregator:G',
        name: 'Join',
        params: {
          groups: [
            {
              group_name: 'answer',
              variables: [{ value: 'begin@text' }, { value: 'begin@obj' }, { value: 'sys.query' }],
            },
            { group_name: 'nothing', variables: [{ value: 'begin@text' }] },
          ],
        },
      },
      { text: '', obj: { k: 1 } },
    );
    expect(out.answer).toEqual({ k: 1 });
    expect(out).not.toHaveProperty('nothing');
  });
});

describe('StringTransform', () => {
  it('splits on every delimiter, keeping empty pieces', async () => {
    const { out } = await one(
      {
        id: 'StringTransform:S',
        name: 'Split',
        params: { method: 'split', split_ref: 'begin@text', delimiters: [',', ';'] },
      },
      { text: 'a,b;;c' },
    );
    expect(out.result).toEqual(['a', 'b', '', 'c']);
  });

  it('merges a script: lists joined with the first delimiter, Jinja2 when marked', async () => {
    const plain = await one(
      {
        id: 'StringTransform:S',
        name: 'Merge',
        params: { method: 'merge', script: 'Items: {begin@list} for {sys.query}', delimiters: [' | '] },
      },
      { list: ['a', 'b'] },
    );
    expect(plain.out.result).toBe('Items: a | b for the query');
    const jinja = await one(
      {
        id: 'StringTransform:S',
        name: 'Merge',
        params: {
          method: 'merge',
          script: '{% for x in [1,2] %}{{x}}-{% endfor %}{begin@text}',
          delimiters: [','],
        },
      },
      { text: 'end' },
    );
    expect(jinja.out.result).toBe('1-2-end');
  });

  it('errors when split meets a non-string', async () => {
    const { err } = await one(
      { id: 'StringTransform:S', name: 'Split', params: { method: 'split', split_ref: 'begin@list' } },
      { list: ['a'] },
    );
    expect(err).toBe('The input of split must be a string, got a list');
  });
});

describe('DataOperations', () => {
  const objs = [
    { name: 'Ada', lang: 'en', meta: '{"age": 36}' },
    { name: 'Lin', lang: 'zh', meta: "{'age': 28, 'ok': True}" },
  ];
  const op = (params: Record<string, unknown>) =>
    one(
      { id: 'DataOperations:D', name: 'Data', params: { query: ['begin@objs', 'begin@obj'], ...params } },
      { objs, obj: { name: 'Bo', lang: 'en' } },
    );

  it('select_keys, remove_keys, rename_keys', async () => {
    expect((await op({ operations: 'select_keys', select_keys: ['name'] })).out.result).toEqual([
      { name: 'Ada' },
      { name: 'Lin' },
      { name: 'Bo' },
    ]);
    expect((await op({ operations: 'remove_keys', remove_keys: ['meta', 'lang'] })).out.result).toEqual([
      { name: 'Ada' },
      { name: 'Lin' },
      { name: 'Bo' },
    ]);
    expect(
      (await op({ operations: 'rename_keys', rename_keys: [{ old_key: 'name', new_key: 'who' }] })).out
        .result,
    ).toEqual([
      { who: 'Ada', lang: 'en', meta: '{"age": 36}' },
      { who: 'Lin', lang: 'zh', meta: "{'age': 28, 'ok': True}" },
      { who: 'Bo', lang: 'en' },
    ]);
  });

  it('combine, filter_values (rule values may hold references), append_or_update', async () => {
    expect((await op({ operations: 'combine' })).out.result).toEqual({
      name: ['Ada', 'Lin', 'Bo'],
      lang: ['en', 'zh', 'en'],
      meta: ['{"age": 36}', "{'age': 28, 'ok': True}"],
    });
    expect(
      (
        await op({
          operations: 'filter_values',
          filter_values: [
            { key: 'lang', operator: '=', value: 'en' },
            { key: 'name', operator: 'start with', value: 'A' },
          ],
        })
      ).out.result,
    ).toEqual([objs[0]]);
    expect(
      (await op({ operations: 'append_or_update', updates: [{ key: 'q', value: '{sys.query}' }] })).out
        .result,
    ).toEqual([
      { ...objs[0], q: 'the query' },
      { ...objs[1], q: 'the query' },
      { name: 'Bo', lang: 'en', q: 'the query' },
    ]);
  });

  it('literal_eval turns literal-looking strings into values', async () => {
    expect((await op({ operations: 'literal_eval' })).out.result).toEqual([
      { name: 'Ada', lang: 'en', meta: { age: 36 } },
      { name: 'Lin', lang: 'zh', meta: { age: 28, ok: true } },
      { name: 'Bo', lang: 'en' },
    ]);
  });
});

describe('ListOperations', () => {
  const list = [3, 1, 2, 3];
  const op = (params: Record<string, unknown>) =>
    one({ id: 'ListOperations:L', name: 'List', params: { query: 'begin@list', ...params } }, { list });

  it('topN, head, tail, sort, drop_duplicates, filter — with first and last', async () => {
    expect((await op({ operations: 'topN', n: 2 })).out).toMatchObject({ result: [3, 1], first: 3, last: 1 });
    expect((await op({ operations: 'topN', n: 0 })).out).toMatchObject({
      result: [],
      first: null,
      last: null,
    });
    expect((await op({ operations: 'head', n: 2 })).out.result).toEqual([1]);
    expect((await op({ operations: 'tail', n: 1 })).out.result).toEqual([3]);
    expect((await op({ operations: 'tail', n: 9 })).out.result).toEqual([]);
    expect((await op({ operations: 'sort', sort_method: 'desc' })).out.result).toEqual([3, 3, 2, 1]);
    expect((await op({ operations: 'drop_duplicates' })).out.result).toEqual([3, 1, 2]);
    expect((await op({ operations: 'filter', filter: { operator: '≠', value: '3' } })).out.result).toEqual([
      1, 2,
    ]);
  });

  it('rejects a value that is not a list', async () => {
    const { err } = await one(
      { id: 'ListOperations:L', name: 'List', params: { query: 'begin@text', operations: 'topN' } },
      { text: 'abc' },
    );
    expect(err).toBe('The input of List Operations should be an array.');
  });
});

/** Catalogue entries of the data components (AGENTS.md §6.9–6.13) and the older Template (§8). */
import { z } from 'zod';
import { defineEntry } from './define.js';
import { int, list, str, strList } from './params.js';
import type { CatalogueEntry } from './types.js';

export const variableAssignerEntry = defineEntry({
  name: 'VariableAssigner',
  nodeType: 'variableAssignerNode',
  group: 'dataManipulation',
  shape: {
    variables: list(
      z.looseObject({ variable: str(''), operator: str('overwrite'), parameter: z.unknown().optional() }),
    ),
  },
  editorInitial: {},
});

const aggregatorGroup = z.looseObject({
  group_name: str(''),
  type: z.string().optional(),
  variables: list(z.looseObject({ value: str('') })),
});

export const variableAggregatorEntry = defineEntry({
  name: 'VariableAggregator',
  nodeType: 'variableAggregatorNode',
  group: 'dataManipulation',
  shape: { groups: list(aggregatorGroup) },
  editorInitial: { outputs: {}, groups: [] },
  dynamicOutputs: (p) => (p.groups as { group_name: string }[]).map((g) => g.group_name).filter(Boolean),
  check: (p) => {
    const groups = p.groups as { group_name: string; variables: unknown[] }[];
    const errs: string[] = [];
    if (!groups.length) errs.push('[VariableAggregator] groups can not be empty');
    groups.forEach((g, i) => {
      if (!g.group_name.trim()) errs.push(`[VariableAggregator] group ${i + 1} needs a name`);
      if (!g.variables.length)
        errs.push(`[VariableAggregator] group ${g.group_name || i + 1} needs at least one variable`);
    });
    return errs;
  },
});

export const stringTransformEntry = defineEntry({
  name: 'StringTransform',
  nodeType: 'ragNode',
  group: 'dataManipulation',
  shape: {
    method: str('split'),
    split_ref: str(''),
    script: str(''),
    delimiters: z.preprocess(
      (v) => (typeof v === 'string' ? [v] : (v ?? undefined)),
      z.array(z.string()).default([',']),
    ),
  },
  editorInitial: {
    method: 'merge',
    split_ref: '',
    script: '',
    delimiters: [','],
    outputs: { result: { type: 'string' } },
  },
  outputs: { result: { type: 'string' } },
  check: (p) => {
    const errs: string[] = [];
    if (!['split', 'merge'].includes(p.method as string))
      errs.push('[StringTransform] method must be split or merge');
    if (!(p.delimiters as string[]).length) errs.push('[StringTransform] delimiters can not be empty');
    return errs;
  },
  inputElementParams: ['script'],
});

export const DATA_OPERATIONS = [
  'select_keys',
  'literal_eval',
  'combine',
  'filter_values',
  'append_or_update',
  'remove_keys',
  'rename_keys',
];

export const dataOperationsEntry = defineEntry({
  name: 'DataOperations',
  nodeType: 'dataOperationsNode',
  group: 'dataManipulation',
  shape: {
    query: z.preprocess(
      (v) =>
        v === null || v === undefined
          ? []
          : Array.isArray(v)
            ? v.map((x) => (x && typeof x === 'object' ? (x as { input?: unknown }).input : x))
            : [v],
      z.array(z.string()),
    ),
    operations: str('literal_eval'),
    select_keys: z.preprocess(
      (v) =>
        Array.isArray(v)
          ? v.map((x) => (x && typeof x === 'object' ? (x as { name?: unknown }).name : x))
          : v,
      strList(),
    ),
    filter_values: list(z.looseObject({ key: str(''), operator: str('='), value: z.unknown().optional() })),
    updates: list(z.looseObject({ key: str(''), value: z.unknown().optional() })),
    remove_keys: z.preprocess(
      (v) =>
        Array.isArray(v)
          ? v.map((x) => (x && typeof x === 'object' ? (x as { name?: unknown }).name : x))
          : v,
      strList(),
    ),
    rename_keys: list(z.looseObject({ old_key: str(''), new_key: str('') })),
  },
  editorInitial: { query: [], operations: 'select_keys', outputs: { result: { type: 'Array<Object>' } } },
  outputs: { result: { type: 'Array<Object>' } },
  check: (p) =>
    DATA_OPERATIONS.includes(p.operations as string)
      ? []
      : [`[DataOperations] unknown operation ${String(p.operations)}`],
});

export const LIST_OPERATIONS = ['topN', 'head', 'tail', 'filter', 'sort', 'drop_duplicates'];

export const listOperationsEntry = defineEntry({
  name: 'ListOperations',
  nodeType: 'listOperationsNode',
  group: 'dataManipulation',
  shape: {
    query: str(''),
    operations: str('topN'),
    n: int(0),
    sort_method: str('asc'),
    filter: z.preprocess(
      (v) => v ?? undefined,
      z
        .looseObject({ operator: str('='), value: z.unknown().optional() })
        .default({ operator: '=', value: '' }),
    ),
  },
  editorInitial: { query: '', operations: 'topN', outputs: {} },
  outputs: { result: { type: 'Array of ?' }, first: { type: '?' }, last: { type: '?' } },
  check: (p) => {
    const errs: string[] = [];
    if (!p.query) errs.push('[ListOperations] query (the list) can not be empty');
    if (!LIST_OPERATIONS.includes(p.operations as string))
      errs.push(`[ListOperations] unknown operation ${String(p.operations)}`);
    return errs;
  },
});

/** The pre-0.20 Template component (Jinja2 text with named parameters), kept for older DSLs. */
export const templateEntry = defineEntry({
  name: 'Template',
  nodeType: 'ragNode',
  shape: { content: str(''), parameters: list(z.looseObject({ key: str(''), component_id: str('') })) },
  editorInitial: { content: '', parameters: [] },
  outputs: { content: { type: 'string' } },
  check: (p) => ((p.content as string).trim() ? [] : ['[Template] content can not be empty']),
  primaryOutput: 'content',
  inputElementParams: ['content'],
  legacy: true,
});

export const DATA_ENTRIES: CatalogueEntry[] = [
  variableAssignerEntry,
  variableAggregatorEntry,
  stringTransformEntry,
  dataOperationsEntry,
  listOperationsEntry,
  templateEntry,
];

/** Catalogue entries of the dialogue and control-flow components (AGENTS.md §5, §6.4–6.8, §8). */
import { z } from 'zod';
import { defineEntry, inputKeys } from './define.js';
import { bool, int, list, obj, str, strList } from './params.js';
import type { CatalogueEntry } from './types.js';

/** Begin / UserFillUp input definitions: an object `{key: {name, type, optional, options}}` (a list is converted on load). */
const inputDefs = () =>
  z.preprocess(
    (v) => {
      if (v === null || v === undefined) return {};
      if (Array.isArray(v)) {
        return Object.fromEntries(
          v
            .filter((x) => x && typeof x === 'object')
            .map((x) => {
              const { key, ...rest } = x as Record<string, unknown>;
              return [String(key ?? ''), rest];
            }),
        );
      }
      return v;
    },
    z.record(
      z.string(),
      z.preprocess((e) => (e && typeof e === 'object' ? e : {}), z.looseObject({})),
    ),
  );

export const beginEntry = defineEntry({
  name: 'Begin',
  nodeType: 'beginNode',
  shape: {
    mode: str('conversational'),
    prologue: str("Hi! I'm your smart assistant. What can I do for you?"),
    inputs: inputDefs(),
    enable_tips: bool(true),
    tips: str('Please fill up the form'),
  },
  editorInitial: { mode: 'conversational', prologue: "Hi! I'm your assistant. What can I do for you?" },
  dynamicOutputs: (p) => inputKeys(p),
  check: (p) =>
    ['conversational', 'task', 'Webhook'].includes(p.mode as string)
      ? []
      : [`mode must be conversational, task or Webhook`],
  debuggable: false,
});

export const userFillUpEntry = defineEntry({
  name: 'UserFillUp',
  nodeType: 'ragNode',
  group: 'dialog',
  shape: { enable_tips: bool(true), tips: str('Please fill up the form'), inputs: inputDefs() },
  editorInitial: { enable_tips: true, tips: '', inputs: [], outputs: {} },
  outputs: { tips: { type: 'string' } },
  dynamicOutputs: (p) => inputKeys(p),
  debuggable: false,
});

export const messageEntry = defineEntry({
  name: 'Message',
  nodeType: 'messageNode',
  group: 'dialog',
  shape: {
    content: z.preprocess((v) => (typeof v === 'string' ? [v] : (v ?? [])), z.array(z.string())),
    stream: bool(true),
    output_format: z.string().nullish(),
    auto_play: bool(false),
    status: z.unknown().optional(),
    memory_ids: strList(),
  },
  editorInitial: { content: [''] },
  outputs: { content: { type: 'str' }, attachment: { type: 'object' } },
  check: (p) =>
    (p.content as string[]).some((c) => c.trim()) ? [] : ['[Message] Content must not be empty'],
  debuggable: false,
  primaryOutput: 'content',
  inputElementParams: ['content'],
});

const switchItem = z.looseObject({ cpn_id: str(''), operator: str('='), value: z.unknown().optional() });
const switchCondition = z.looseObject({
  logical_operator: str('and'),
  items: list(switchItem),
  to: strList(),
});

export const SWITCH_OPERATORS = [
  'contains',
  'not contains',
  'start with',
  'end with',
  'empty',
  'not empty',
  '=',
  '≠',
  '>',
  '<',
  '≥',
  '≤',
];

export const switchEntry = defineEntry({
  name: 'Switch',
  nodeType: 'switchNode',
  group: 'flow',
  shape: {
    conditions: list(switchCondition),
    end_cpn_ids: strList(),
    operators: z.array(z.string()).default(SWITCH_OPERATORS),
  },
  editorInitial: {
    conditions: [{ logical_operator: 'and', items: [{ operator: '=' }], to: [] }],
    end_cpn_ids: [],
  },
  outputs: { next: { type: 'Array<string>' } },
  check: (p) => {
    const errs: string[] = [];
    const conds = p.conditions as { to: string[] }[];
    if (!conds.length) errs.push('[Switch] conditions must not be empty');
    conds.forEach((c, i) => {
      if (!c.to.length) errs.push(`[Switch] 'To' of Case ${i + 1} can not be empty`);
    });
    if (!(p.end_cpn_ids as string[]).length)
      errs.push('[Switch] the else branch (end_cpn_ids) can not be empty');
    return errs;
  },
  debuggable: false,
  primaryOutput: 'next',
});

export const iterationEntry = defineEntry({
  name: 'Iteration',
  nodeType: 'group',
  group: 'flow',
  shape: { items_ref: str(''), variable: obj() },
  editorInitial: { items_ref: '', outputs: {} },
  check: (p) => (p.items_ref ? [] : ['[Iteration] items_ref (the list to iterate) can not be empty']),
  debuggable: false,
});

export const iterationItemEntry = defineEntry({
  name: 'IterationItem',
  nodeType: 'iterationStartNode',
  editorInitial: { outputs: { item: { type: 'unkown' }, index: { type: 'integer' } } },
  outputs: { item: { type: 'unkown' }, index: { type: 'integer' } },
  debuggable: false,
});

const loopVariable = z.looseObject({
  variable: str(''),
  type: str('string'),
  input_mode: str('constant'),
  value: z.unknown().optional(),
});
const loopCondition = z.looseObject({
  variable: str(''),
  operator: str(''),
  input_mode: str('constant'),
  value: z.unknown().optional(),
});

export const loopEntry = defineEntry({
  name: 'Loop',
  nodeType: 'loopNode',
  group: 'flow',
  shape: {
    loop_variables: list(loopVariable),
    loop_termination_condition: list(loopCondition),
    logical_operator: str('and'),
    maximum_loop_count: int(0),
  },
  editorInitial: { loop_variables: [], loop_termination_condition: [], maximum_loop_count: 10, outputs: {} },
  dynamicOutputs: (p) => (p.loop_variables as { variable: string }[]).map((v) => v.variable).filter(Boolean),
  check: (p) =>
    ['and', 'or'].includes(p.logical_operator as string) ? [] : ['[Loop] logical_operator must be and or or'],
  debuggable: false,
});

export const loopItemEntry = defineEntry({ name: 'LoopItem', nodeType: 'loopStartNode', debuggable: false });

export const exitLoopEntry = defineEntry({
  name: 'ExitLoop',
  nodeType: 'exitLoopNode',
  group: 'flow',
  debuggable: false,
});

export const noteEntry = defineEntry({
  name: 'Note',
  nodeType: 'noteNode',
  shape: { text: str('') },
  editorInitial: { text: '' },
  executable: false,
  debuggable: false,
});

export const concentratorEntry = defineEntry({
  name: 'Concentrator',
  nodeType: 'ragNode',
  legacy: true,
  debuggable: false,
});

export const FLOW_ENTRIES: CatalogueEntry[] = [
  beginEntry,
  userFillUpEntry,
  messageEntry,
  switchEntry,
  iterationEntry,
  iterationItemEntry,
  loopEntry,
  loopItemEntry,
  exitLoopEntry,
  noteEntry,
  concentratorEntry,
];

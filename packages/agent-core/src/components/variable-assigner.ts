/**
 * VariableAssigner (§6.9): writes `env.*`, `sys.*` or a component output (loop variables included).
 * A failed operation is not an error: the variable gets an `ERROR:…` string instead.
 */
import { isTextStream } from '../runtime/text-stream.js';
import { isPlainObject } from '../util/pyjson.js';
import type { ComponentContext, ComponentImpl } from './types.js';

interface Assignment {
  variable: string;
  operator: string;
  parameter?: unknown;
}

async function refValue(ctx: ComponentContext, parameter: unknown): Promise<unknown> {
  if (typeof parameter !== 'string' || !parameter.trim()) return parameter ?? null;
  const v = await ctx.resolve(parameter);
  return isTextStream(v) ? v.text() : v;
}

function emptyOf(cur: unknown): unknown {
  if (Array.isArray(cur)) return [];
  if (typeof cur === 'string') return '';
  if (isPlainObject(cur)) return {};
  if (typeof cur === 'number' || typeof cur === 'boolean') return 0;
  return null;
}

function numberOf(v: unknown): number | null {
  if (typeof v === 'number') return v;
  // Booleans are rejected; numeric text from a form is accepted.
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
  return null;
}

function sameKind(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b);
  if (a === null || b === null) return a === b;
  return typeof a === typeof b;
}

async function compute(ctx: ComponentContext, a: Assignment, cur: unknown): Promise<unknown> {
  switch (a.operator) {
    case 'overwrite':
      return refValue(ctx, a.parameter);
    case 'clear':
      return emptyOf(cur);
    case 'set':
      return cur === null || cur === undefined || typeof cur === 'string'
        ? typeof a.parameter === 'string'
          ? ctx.render(a.parameter)
          : a.parameter
        : a.parameter;
    case 'append': {
      const list = cur === null || cur === undefined || cur === '' ? [] : cur;
      if (!Array.isArray(list)) return 'ERROR:VARIABLE_NOT_LIST';
      const v = await refValue(ctx, a.parameter);
      if (list.length && !sameKind(list[0], v)) return 'ERROR:PARAMETER_NOT_LIST_ELEMENT_TYPE';
      return [...list, v];
    }
    case 'extend': {
      const list = cur === null || cur === undefined || cur === '' ? [] : cur;
      if (!Array.isArray(list)) return 'ERROR:VARIABLE_NOT_LIST';
      const v = await refValue(ctx, a.parameter);
      if (!Array.isArray(v)) return 'ERROR:PARAMETER_NOT_LIST';
      if (list.length && v.length && !sameKind(list[0], v[0])) return 'ERROR:PARAMETER_NOT_LIST_ELEMENT_TYPE';
      return [...list, ...v];
    }
    case 'remove_first':
    case 'remove_last':
      if (!Array.isArray(cur)) return 'ERROR:VARIABLE_NOT_LIST';
      return a.operator === 'remove_first' ? cur.slice(1) : cur.slice(0, -1);
    case '+=':
    case '-=':
    case '*=':
    case '/=': {
      const x = typeof cur === 'boolean' ? null : numberOf(cur);
      const y = typeof a.parameter === 'boolean' ? null : numberOf(a.parameter);
      if (x === null || y === null) return 'ERROR:VARIABLE_NOT_NUMBER or PARAMETER_NOT_NUMBER';
      if (a.operator === '+=') return x + y;
      if (a.operator === '-=') return x - y;
      if (a.operator === '*=') return x * y;
      if (y === 0) return 'ERROR:DIVIDE_BY_ZERO';
      return x / y;
    }
    default:
      return null;
  }
}

export const variableAssigner: ComponentImpl = {
  async invoke(ctx) {
    const inputs: Record<string, unknown> = {};
    for (const a of ctx.params.variables as Assignment[]) {
      if (!a.variable) continue;
      let cur: unknown = null;
      try {
        cur = await ctx.resolve(a.variable);
        if (isTextStream(cur)) cur = await cur.text();
      } catch {
        cur = null;
      }
      const value = await compute(ctx, a, cur);
      ctx.writeVariable(a.variable, value);
      inputs[a.variable] = value;
    }
    ctx.setInputs(inputs);
  },
};

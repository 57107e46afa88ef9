/** ListOperations (§6.13): topN, head, tail, filter, sort, drop_duplicates over a list reference. */
import { isTextStream } from '../runtime/text-stream.js';
import { deepEqual, isPlainObject } from '../util/pyjson.js';
import type { ComponentImpl } from './types.js';

function textOf(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** Sort key: objects by their sorted key/value pairs, other values as themselves. */
function sortKey(v: unknown): unknown {
  if (isPlainObject(v))
    return JSON.stringify(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return v;
}

function compare(a: unknown, b: unknown): number {
  const x = sortKey(a);
  const y = sortKey(b);
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  const sx = typeof x === 'string' ? x : JSON.stringify(x);
  const sy = typeof y === 'string' ? y : JSON.stringify(y);
  return sx < sy ? -1 : sx > sy ? 1 : 0;
}

export const listOperations: ComponentImpl = {
  async invoke(ctx) {
    const p = ctx.params as {
      query: string;
      operations: string;
      n: number;
      sort_method: string;
      filter: { operator: string; value?: unknown };
    };
    let list = await ctx.resolve(p.query);
    if (isTextStream(list)) list = await list.text();
    ctx.setInputs({ [p.query]: list });
    if (!Array.isArray(list)) throw new Error('The input of List Operations should be an array.');
    const n = p.n;
    let result: unknown[];
    switch (p.operations) {
      case 'topN':
        result = n < 1 ? [] : list.slice(0, n);
        break;
      case 'head':
        result = n >= 1 && n <= list.length ? [list[n - 1]] : [];
        break;
      case 'tail':
        result = n >= 1 && n <= list.length ? [list[list.length - n]] : [];
        break;
      case 'filter': {
        const expected = textOf(p.filter.value);
        const op = p.filter.operator;
        result = list.filter((item) => {
          const t = textOf(item);
          if (op === '=') return t === expected;
          if (op === '≠') return t !== expected;
          if (op === 'contains') return t.includes(expected);
          if (op === 'start with') return t.startsWith(expected);
          if (op === 'end with') return t.endsWith(expected);
          return false;
        });
        break;
      }
      case 'sort':
        result = [...list].sort((a, b) => (p.sort_method === 'desc' ? compare(b, a) : compare(a, b)));
        break;
      case 'drop_duplicates':
        result = list.filter((item, i) => list.findIndex((x) => deepEqual(x, item)) === i);
        break;
      default:
        throw new Error(`Unknown ListOperations operation: ${p.operations}`);
    }
    ctx.setOutput('result', result);
    ctx.setOutput('first', result.length ? result[0] : null);
    ctx.setOutput('last', result.length ? result[result.length - 1] : null);
  },
};

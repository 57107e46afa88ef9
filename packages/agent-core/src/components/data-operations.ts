/** DataOperations (§6.12): operations over the objects the `query` references hold. */
import { isTextStream } from '../runtime/text-stream.js';
import { parseValue } from '../util/literal.js';
import { isPlainObject } from '../util/pyjson.js';
import type { ComponentContext, ComponentImpl } from './types.js';

type Obj = Record<string, unknown>;

function textOf(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function ruleHolds(actual: string, operator: string, expected: string): boolean {
  switch (operator) {
    case '=':
      return actual === expected;
    case '≠':
      return actual !== expected;
    case 'contains':
      return actual.includes(expected);
    case 'start with':
      return actual.startsWith(expected);
    case 'end with':
      return actual.endsWith(expected);
    default:
      return false;
  }
}

/** Lectern's `literal_eval` (RAGFlow falls through to rename_keys, a Quirk): parse literal-looking strings, recursively. */
function literalEval(v: unknown): unknown {
  if (typeof v === 'string') {
    const t = v.trim();
    if (
      /^[[{("']/.test(t) ||
      /^(true|false|none|null)$/i.test(t) ||
      /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(t)
    ) {
      const parsed = parseValue(/^none$/i.test(t) ? 'None' : /^(true|false)$/i.test(t) ? t.toLowerCase() : t);
      return parsed === v ? v : literalEval(parsed);
    }
    return v;
  }
  if (Array.isArray(v)) return v.map(literalEval);
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, literalEval(x)]));
  return v;
}

async function inputsOf(ctx: ComponentContext, refs: string[]): Promise<Obj[]> {
  const out: Obj[] = [];
  const recorded: Obj = {};
  for (const ref of refs) {
    if (!ref) continue;
    let v = await ctx.resolve(ref);
    if (isTextStream(v)) v = await v.text();
    recorded[ref] = v;
    if (isPlainObject(v)) out.push(v);
    else if (Array.isArray(v)) out.push(...v.filter(isPlainObject));
  }
  ctx.setInputs(recorded);
  return out;
}

export const dataOperations: ComponentImpl = {
  async invoke(ctx) {
    const p = ctx.params as {
      query: string[];
      operations: string;
      select_keys: string[];
      filter_values: { key: string; operator: string; value?: unknown }[];
      updates: { key: string; value?: unknown }[];
      remove_keys: string[];
      rename_keys: { old_key: string; new_key: string }[];
    };
    const objs = await inputsOf(ctx, p.query);
    let result: unknown;
    switch (p.operations) {
      case 'select_keys':
        result = objs.map((o) =>
          Object.fromEntries(p.select_keys.filter((k) => k in o).map((k) => [k, o[k]])),
        );
        break;
      case 'combine': {
        const out: Obj = {};
        for (const o of objs)
          for (const [k, v] of Object.entries(o)) {
            if (!(k in out)) out[k] = v;
            else
              out[k] =
                Array.isArray(out[k]) && (out[k] as unknown[]).length
                  ? [...(out[k] as unknown[]), v]
                  : [out[k], v];
          }
        result = out;
        break;
      }
      case 'filter_values': {
        const rules = await Promise.all(
          p.filter_values.map(async (r) => ({ ...r, expected: await ctx.render(textOf(r.value)) })),
        );
        result = objs.filter((o) =>
          rules.every((r) => r.key in o && ruleHolds(textOf(o[r.key]), r.operator, r.expected)),
        );
        break;
      }
      case 'append_or_update': {
        const updates = await Promise.all(
          p.updates.map(async (u) => ({
            key: u.key,
            value: typeof u.value === 'string' ? await ctx.render(u.value).catch(() => u.value) : u.value,
          })),
        );
        result = objs.map((o) => ({
          ...o,
          ...Object.fromEntries(updates.filter((u) => u.key).map((u) => [u.key, u.value])),
        }));
        break;
      }
      case 'remove_keys':
        result = objs.map((o) =>
          Object.fromEntries(Object.entries(o).filter(([k]) => !p.remove_keys.includes(k))),
        );
        break;
      case 'rename_keys':
        result = objs.map((o) => {
          const out: Obj = {};
          for (const [k, v] of Object.entries(o))
            out[p.rename_keys.find((r) => r.old_key === k)?.new_key || k] = v;
          return out;
        });
        break;
      case 'literal_eval':
        result = objs.map((o) => literalEval(o));
        break;
      default:
        throw new Error(`Unknown DataOperations operation: ${p.operations}`);
    }
    ctx.setOutput('result', result);
  },
};

/** Operator evaluation of Switch (§6.4) and of Loop termination conditions (§3.7). */
import { deepEqual, isPlainObject, pyTruthy } from '../util/pyjson.js';

function asString(input: unknown, op: string): string {
  if (typeof input !== 'string') throw new Error(`The input of operator '${op}' must be a string`);
  return input;
}

function toFloat(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
  return null;
}

function compare(
  input: unknown,
  value: unknown,
  test: (a: number | string, b: number | string) => boolean,
): boolean {
  const a = toFloat(input);
  const b = toFloat(value);
  if (a !== null && b !== null) return test(a, b);
  // Python falls back to a raw comparison, which only works between two strings.
  if (typeof input === 'string' && typeof value === 'string') return test(input, value);
  return false;
}

/** The editor's labels (SPEC §9 names) for the stored operator values (AGENTS.md §6.4 table). */
const LABELS: Record<string, string> = {
  equal: '=',
  notEqual: '≠',
  gt: '>',
  ge: '≥',
  lt: '<',
  le: '≤',
  contains: 'contains',
  notContains: 'not contains',
  startWith: 'start with',
  endWith: 'end with',
  empty: 'empty',
  notEmpty: 'not empty',
  in: 'in',
  notIn: 'not in',
};

/** One Switch item: `input` is the resolved `cpn_id`, `value` the stored value (a float when input is a number). */
export function switchOperator(input: unknown, storedOperator: string, rawValue: unknown): boolean {
  const operator = LABELS[storedOperator] ?? storedOperator;
  const value = typeof input === 'number' && toFloat(rawValue) !== null ? toFloat(rawValue) : rawValue;
  const lower = (v: unknown) => String(v ?? '').toLowerCase();
  switch (operator) {
    case 'contains':
      return asString(input, operator).toLowerCase().includes(lower(value));
    case 'not contains':
      return !asString(input, operator).toLowerCase().includes(lower(value));
    case 'start with':
      return asString(input, operator).toLowerCase().startsWith(lower(value));
    case 'end with':
      return asString(input, operator).toLowerCase().endsWith(lower(value));
    case 'empty':
      return !pyTruthy(input);
    case 'not empty':
      return pyTruthy(input);
    case '=':
      return deepEqual(input, value);
    case '≠':
      return !deepEqual(input, value);
    case '>':
      return compare(input, value, (a, b) => a > b);
    case '<':
      return compare(input, value, (a, b) => a < b);
    case '≥':
      return compare(input, value, (a, b) => a >= b);
    case '≤':
      return compare(input, value, (a, b) => a <= b);
    // The editor offers in / not in; RAGFlow fails on them. Lectern: membership in a comma-separated
    // value, or of the value in a list input.
    case 'in':
    case 'not in': {
      const member = Array.isArray(input)
        ? input.some((x) => deepEqual(x, value) || String(x) === String(value))
        : String(value ?? '')
            .split(',')
            .map((x) => x.trim())
            .includes(String(input ?? '').trim());
      return operator === 'in' ? member : !member;
    }
    default:
      throw new Error(`Not supported operator: ${operator}`);
  }
}

/** A Loop termination condition, by the runtime type of the variable (§3.7 table). */
export function loopOperator(input: unknown, operator: string, value: unknown): boolean {
  const invalid = () => new Error(`Invalid operator: ${operator}`);
  if (input === null || input === undefined) return operator === 'empty';
  if (typeof input === 'string') {
    const v = String(value ?? '');
    switch (operator) {
      case 'contains':
        return input.includes(v);
      case 'not contains':
        return !input.includes(v);
      case 'start with':
        return input.startsWith(v);
      case 'end with':
        return input.endsWith(v);
      case 'is':
        return input === v;
      case 'is not':
        return input !== v;
      case 'empty':
        return input === '';
      case 'not empty':
        return input !== '';
    }
    throw invalid();
  }
  if (typeof input === 'boolean' && (operator === 'is' || operator === 'is not')) {
    // RAGFlow matches booleans as numbers and raises here; Lectern compares them.
    const v = value === true || value === 'true' || value === 1 || value === '1';
    return operator === 'is' ? input === v : input !== v;
  }
  if (typeof input === 'number' || typeof input === 'boolean') {
    const a = Number(input);
    const b = toFloat(value);
    switch (operator) {
      case '=':
        return b !== null && a === b;
      case '≠':
        return b === null || a !== b;
      case '>':
        return b !== null && a > b;
      case '<':
        return b !== null && a < b;
      case '≥':
        return b !== null && a >= b;
      case '≤':
        return b !== null && a <= b;
      case 'empty':
        return false;
      case 'not empty':
        return true;
    }
    throw invalid();
  }
  if (Array.isArray(input)) {
    switch (operator) {
      case 'contains':
        return input.some((x) => deepEqual(x, value));
      case 'not contains':
        return !input.some((x) => deepEqual(x, value));
      case 'is':
        return deepEqual(input, value);
      case 'is not':
        return !deepEqual(input, value);
      case 'empty':
        return input.length === 0;
      case 'not empty':
        return input.length > 0;
    }
    throw invalid();
  }
  if (isPlainObject(input)) {
    if (operator === 'empty') return Object.keys(input).length === 0;
    if (operator === 'not empty') return Object.keys(input).length > 0;
  }
  throw invalid();
}

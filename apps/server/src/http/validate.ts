import { z } from 'zod';
import { RetCode } from '@lectern/shared';
import { ApiError } from './envelope.js';

/** A body that is empty or not a JSON object counts as {} for required-field checks (API.md §1.2). */
export function asObject(input: unknown): Record<string, unknown> {
  return input !== null && typeof input === 'object' && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : {};
}

function isRequired(field: z.ZodType): boolean {
  return !field.safeParse(undefined).success;
}

const typeWords: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  array: 'a list',
  object: 'an object',
};

function describeIssue(issue: z.core.$ZodIssue): string {
  const name = issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
  if (issue.code === 'invalid_type') {
    if (issue.path.length > 1 && typeof issue.path[issue.path.length - 1] === 'number') {
      const list = issue.path.slice(0, -1).map(String).join('.');
      return `\`${list}\` items must be ${(typeWords[issue.expected] ?? issue.expected).replace(/^an? /, '')}s.`;
    }
    return `\`${name}\` must be ${typeWords[issue.expected] ?? issue.expected}.`;
  }
  if (issue.code === 'too_small' && (issue.origin === 'number' || issue.origin === 'int')) {
    return `\`${name}\` must be ${issue.inclusive ? 'at least' : 'greater than'} ${String(issue.minimum)}.`;
  }
  if (issue.code === 'too_big' && (issue.origin === 'number' || issue.origin === 'int')) {
    return `\`${name}\` must be ${issue.inclusive ? 'at most' : 'less than'} ${String(issue.maximum)}.`;
  }
  // Custom refinements carry their own readable message.
  return issue.message.includes('`') ? issue.message : `\`${name}\` ${issue.message}`;
}

/**
 * Validates a request payload against a zod object schema the way the contract wants (API.md §1.5):
 * absent required fields → 101 "required argument are missing: a,b; " in declared order;
 * an enum value outside its set → 101 "required argument values: k=v";
 * a present but unusable value → 100 with a clean message naming the field.
 */
export function validate<S extends z.ZodObject>(schema: S, input: unknown): z.infer<S> {
  const body = asObject(input);
  const missing = Object.entries(schema.shape)
    .filter(([key, field]) => !(key in body) && isRequired(field as z.ZodType))
    .map(([key]) => key);
  if (missing.length > 0) {
    throw new ApiError(RetCode.ARGUMENT_ERROR, `required argument are missing: ${missing.join(',')}; `);
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue.code === 'invalid_value' && issue.path.length === 1) {
    const key = String(issue.path[0]);
    throw new ApiError(RetCode.ARGUMENT_ERROR, `required argument values: ${key}=${String(body[key])}`);
  }
  throw new ApiError(RetCode.EXCEPTION_ERROR, describeIssue(issue));
}

/** Rejects fields the caller may not set (101 "Parameter <p> isn't allowed"). */
export function forbidFields(input: unknown, fields: readonly string[]): void {
  const body = asObject(input);
  for (const f of fields) {
    if (f in body) throw new ApiError(RetCode.ARGUMENT_ERROR, `Parameter ${f} isn't allowed`);
  }
}

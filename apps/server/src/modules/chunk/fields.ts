/**
 * Checks of the chunk routes' fields that answer with the contract's own codes and messages
 * (API.md §7): the contract declares these fields' shapes (`contract/chunk.ts`, `routeChecked`) and
 * the route checks their values here, after validate().
 */
import { parseCount, RetCode } from '@lectern/shared';
import { ApiError, errors } from '../../http/envelope.js';

/**
 * A keyword list of create/set: absent → [], not a list → 102 with the route's own wording
 * ("is required to be a list" on create, "should be a list" on set), an item that is not a string → 100.
 */
export function keywordList(name: string, value: unknown, listMessage: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw errors.data(`\`${name}\` ${listMessage}`);
  if (!value.every((v) => typeof v === 'string')) {
    throw new ApiError(RetCode.EXCEPTION_ERROR, `\`${name}\` items must be strings.`);
  }
  // Stored as given, empty strings included (`[""]` stays `[""]`): clients read back what they sent.
  return value as string[];
}

/** Tags are labels counted per KB (`kb/<id>/tags`): blank ones are dropped, the rest trimmed. */
export function nonBlank(list: string[] | undefined): string[] | undefined {
  return list?.map((v) => v.trim()).filter((v) => v.length > 0);
}

/** `tag_feas`: an object of finite numbers (tag → weight). */
export function tagFeatures(value: unknown): Record<string, number> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value))
    throw errors.exception('`tag_feas` must be an object.');
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    if (!Number.isFinite(n)) throw errors.exception('`tag_feas` values must be numbers.');
    out[k] = n;
  }
  return out;
}

/** `available_int`: 0 or 1 (also "0"/"1" and booleans); anything else → 100. */
export function availability(value: unknown): 0 | 1 {
  if (value === 1 || value === '1' || value === true) return 1;
  if (value === 0 || value === '0' || value === false) return 0;
  throw errors.exception('`available_int` must be 0 or 1.');
}

/**
 * A positive integer paging field (numbers or numeric strings); absent → fallback, and 0 too when
 * `zeroIsDefault` (`size=0` asks for the default page size, as existing clients send it).
 */
export function positiveInt(name: string, value: unknown, fallback: number, zeroIsDefault = false): number {
  if (zeroIsDefault && (value === 0 || value === '0')) return fallback;
  const count = parseCount(name, value, fallback);
  if (!count.ok) throw errors.exception(count.message);
  return count.value;
}

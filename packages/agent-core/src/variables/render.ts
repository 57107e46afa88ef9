import { pyJson } from '../util/pyjson.js';
import { isTextStream } from '../runtime/text-stream.js';

/**
 * How a resolved value becomes text (AGENTS.md §4 "Rendering into text"): null → "", a string as is,
 * a stream consumed completely, anything else as Python-style JSON.
 */
export async function valueToText(value: unknown, listJoin?: string): Promise<string> {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (isTextStream(value)) return value.text();
  if (listJoin !== undefined && Array.isArray(value)) {
    const parts = await Promise.all(value.map((v) => valueToText(v)));
    return parts.join(listJoin);
  }
  return pyJson(value);
}

/** Values of Begin / UserFillUp form inputs (§5): `{key: {name, type, optional, options, value}}`. */
import { isPlainObject } from '../util/pyjson.js';
import type { ComponentContext } from './types.js';

async function valueOf(ctx: ComponentContext, key: string, entry: unknown): Promise<unknown> {
  // A bare value instead of a form entry is an error that stops the run (§5).
  if (!isPlainObject(entry))
    throw new Error(`Input '${key}' must be an object {type, value}, got a bare value`);
  const type = String(entry.type ?? '').toLowerCase();
  const v = entry.value;
  if (type.includes('file')) {
    if (v === null || v === undefined) return entry.optional ? null : [];
    return ctx.filesToText(v);
  }
  if (
    (type === 'integer' || type === 'float' || type === 'number') &&
    typeof v === 'string' &&
    v.trim() &&
    !Number.isNaN(Number(v))
  ) {
    return Number(v);
  }
  if (type === 'boolean' && typeof v === 'string') return v === 'true';
  return v;
}

/** Set one output per submitted key (all keys, or only `onlyKeys` when given); record them as inputs. */
export async function applyFormInputs(
  ctx: ComponentContext,
  inputs: Record<string, unknown>,
  onlyKeys?: string[],
) {
  const recorded: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(inputs)) {
    if (onlyKeys && onlyKeys.length && !onlyKeys.includes(key)) continue;
    const v = await valueOf(ctx, key, entry);
    ctx.setOutput(key, v);
    recorded[key] = v;
  }
  ctx.setInputs(recorded);
}

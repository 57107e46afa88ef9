import { z } from 'zod';
import { commonParams } from './params.js';
import type { CatalogueEntry } from './types.js';

type Shape = Record<string, z.ZodType>;

/** A loose params schema: the given keys with defaults over the common ones; unknown keys kept. */
export function paramsSchema(shape: Shape): z.ZodType<Record<string, unknown>> {
  return z.looseObject({ ...commonParams, ...shape }) as unknown as z.ZodType<Record<string, unknown>>;
}

type EntryInput = Pick<CatalogueEntry, 'name' | 'nodeType'> &
  Partial<Omit<CatalogueEntry, 'params'>> & { shape?: Shape };

/** Fill the usual values of a catalogue entry. */
export function defineEntry(e: EntryInput): CatalogueEntry {
  const { shape, ...rest } = e;
  return {
    group: null,
    editorInitial: {},
    outputs: {},
    implementedBy: 'core',
    executable: true,
    debuggable: true,
    timeoutSeconds: 600,
    primaryOutput: 'result',
    inputElementParams: [],
    ...rest,
    params: paramsSchema(shape ?? {}),
  };
}

/** Keys of a params object's `outputs` declaration. */
export function declaredOutputNames(params: Record<string, unknown>): string[] {
  const o = params.outputs;
  return o && typeof o === 'object' && !Array.isArray(o) ? Object.keys(o) : [];
}

/** Keys of a params object's `inputs` form definition (Begin, UserFillUp). */
export function inputKeys(params: Record<string, unknown>): string[] {
  const i = params.inputs;
  if (Array.isArray(i)) return i.map((x) => String((x as { key?: unknown }).key ?? '')).filter(Boolean);
  return i && typeof i === 'object' ? Object.keys(i) : [];
}

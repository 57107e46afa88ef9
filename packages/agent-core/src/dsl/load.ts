/**
 * `loadDsl`: read a saved DSL (object or JSON text) the way RAGFlow v0.24 saves it, tolerate what
 * its templates contain (missing keys, `null`s, numbers as strings), map older component names, and
 * return a normalised copy. The input is never modified (its `graph` is shared with the copy, read-only).
 */
import type { z } from 'zod';
import { isPlainObject } from '../util/pyjson.js';
import { DslError, type DslIssue } from './errors.js';
import { mapLegacyComponents } from './legacy.js';
import { copyForRun, fastNormalise } from './normalise.js';
import { dslSchema, type Dsl } from './schema.js';

export const SYS_GLOBALS = [
  'sys.query',
  'sys.user_id',
  'sys.conversation_turns',
  'sys.files',
  'sys.history',
] as const;

export function emptySysGlobals(): Record<string, unknown> {
  return {
    'sys.query': '',
    'sys.user_id': '',
    'sys.conversation_turns': 0,
    'sys.files': [],
    'sys.history': [],
  };
}

/** Default value of a conversation variable type (§3.13). */
export function defaultOfType(type: string | undefined): unknown {
  const t = (type ?? '').toLowerCase();
  if (t === 'number') return 0;
  if (t === 'boolean') return false;
  if (t.startsWith('object')) return {};
  if (t.startsWith('array')) return [];
  return '';
}

function issuesFromZod(err: z.ZodError, raw: Record<string, unknown>): DslIssue[] {
  return err.issues.map((i) => {
    const path = i.path.map(String);
    if (path[0] === 'components' && path[1]) {
      const id = path[1];
      const where = path.slice(2).join('.');
      return {
        componentId: id,
        componentName: nameInRaw(raw, id),
        message: `${where ? `${where}: ` : ''}${i.message}`,
      };
    }
    return { componentId: null, componentName: null, message: `${path.join('.') || 'DSL'}: ${i.message}` };
  });
}

function nameInRaw(raw: Record<string, unknown>, id: string): string {
  const nodes = isPlainObject(raw.graph) && Array.isArray(raw.graph.nodes) ? raw.graph.nodes : [];
  const node = nodes.find((n) => isPlainObject(n) && n.id === id) as
    { data?: { name?: unknown } } | undefined;
  return typeof node?.data?.name === 'string' && node.data.name ? node.data.name : id;
}

export interface LoadedDsl {
  dsl: Dsl;
  /** legacy components that were mapped, e.g. "generate:0: Generate → LLM" */
  legacyMapped: string[];
}

/** Like `loadDsl`, also reporting which legacy components were mapped. */
export function loadDslReport(input: unknown): LoadedDsl {
  let raw: unknown = input;
  if (typeof input === 'string') {
    try {
      raw = JSON.parse(input);
    } catch {
      throw new DslError([{ componentId: null, componentName: null, message: 'The DSL is not valid JSON' }]);
    }
  }
  if (!isPlainObject(raw))
    throw new DslError([{ componentId: null, componentName: null, message: 'The DSL must be an object' }]);
  const copy = typeof input === 'string' ? raw : copyForRun(raw);
  if (Array.isArray(copy.path))
    copy.path = copy.path.flat(Infinity).filter((x): x is string => typeof x === 'string');
  const legacyMapped = mapLegacyComponents(copy);
  let dsl = fastNormalise(copy);
  if (!dsl) {
    const parsed = dslSchema.safeParse(copy);
    if (!parsed.success) throw new DslError(issuesFromZod(parsed.error, copy));
    dsl = parsed.data;
  }
  normaliseGlobals(dsl);
  return { dsl, legacyMapped };
}

/** Load and normalise a DSL; throws `DslError` naming the component for a malformed one. */
export function loadDsl(input: unknown): Dsl {
  return loadDslReport(input).dsl;
}

/** §2.1: five `sys.*` keys when `globals` is absent, `sys.history` added, `env.*` mirrored from `variables`. */
function normaliseGlobals(dsl: Dsl) {
  if (!dsl.globals) dsl.globals = emptySysGlobals();
  if (!('sys.history' in dsl.globals)) dsl.globals['sys.history'] = [];
  for (const [name, def] of Object.entries(dsl.variables ?? {})) {
    const key = `env.${name}`;
    if (!(key in dsl.globals)) dsl.globals[key] = def.value ?? defaultOfType(def.type);
  }
}

/**
 * `validateDsl`: everything that makes a DSL unrunnable, each problem naming its component —
 * unknown component, bad params (the component's `check()`), dangling edges, cycles without a Loop,
 * missing begin, container structure, references to unknown components or outputs, and the SPEC §5
 * rules (names non-empty and unique, Message text required).
 */
import { z } from 'zod';
import { catalogueEntry } from '../catalogue/index.js';
import type { ToolPort } from '../ports.js';
import { paramsIdentity, parseComponentParams } from './params-cache.js';
import { type DslIssue, DslError } from './errors.js';
import { branchTargets, labelOf, successorsOf } from './graph.js';
import type { Dsl } from './schema.js';
import { referenceIssues } from './validate-refs.js';

export interface ValidateOptions {
  /** check display names (non-empty, unique); on by default */
  names?: boolean;
  /** the host's tool components: their `check()` runs for tool nodes and Agent tools (issue 15 fields) */
  tools?: ToolPort;
}

export { parseComponentParams };

/**
 * What validation reads, as a string: component ids, types, edges, containers and the identity of
 * their parsed params (equal params share one cached object), graph names and edges, and the names
 * of globals and variables. Equal fingerprints validate the same, so runs of an unchanged canvas
 * reuse the answer.
 */
function fingerprint(dsl: Dsl, options: ValidateOptions): string | null {
  const parts: string[] = [String(options.names !== false)];
  for (const [id, c] of Object.entries(dsl.components)) {
    const p = parseComponentParams(c.obj.component_name, c.obj.params);
    if (!p.ok) return null;
    parts.push(
      `${id}\u0001${c.obj.component_name}\u0001${c.downstream.join(',')}\u0001${c.parent_id ?? ''}\u0001${paramsIdentity(p.params)}`,
    );
  }
  for (const n of dsl.graph?.nodes ?? []) parts.push(`n\u0001${n.id}\u0001${n.data?.name ?? ''}`);
  for (const e of dsl.graph?.edges ?? []) parts.push(`e\u0001${e.source}\u0001${e.target}`);
  parts.push(
    `g\u0001${Object.keys(dsl.globals ?? {}).join(',')}`,
    `v\u0001${Object.keys(dsl.variables ?? {}).join(',')}`,
  );
  return parts.join('\u0002');
}

const memo = new Map<string, DslIssue[]>();

export function validateDsl(dsl: Dsl, options: ValidateOptions = {}): DslIssue[] {
  const tools = options.tools ? toolIssues(dsl, options.tools) : [];
  const key = fingerprint(dsl, options);
  const hit = key === null ? undefined : memo.get(key);
  if (hit) return [...hit.map((i) => ({ ...i })), ...tools];
  const issues = validateAll(dsl, options);
  if (key !== null) {
    if (memo.size >= 500) memo.delete(memo.keys().next().value as string);
    memo.set(
      key,
      issues.map((i) => ({ ...i })),
    );
  }
  return [...issues, ...tools];
}

function validateAll(dsl: Dsl, options: ValidateOptions): DslIssue[] {
  const issues: DslIssue[] = [];
  const add = (id: string | null, message: string) =>
    issues.push({ componentId: id, componentName: id ? labelOf(dsl, id) : null, message });
  const comps = dsl.components;

  if (!comps.begin || comps.begin.obj.component_name !== 'Begin')
    add(null, 'The DSL has no begin component (id "begin")');

  const parsed = new Map<string, Record<string, unknown>>();
  for (const [id, c] of Object.entries(comps)) {
    const name = c.obj.component_name;
    const entry = catalogueEntry(name);
    if (!entry) {
      add(id, `unknown component '${name}'`);
      continue;
    }
    if (!entry.executable) {
      add(id, `${name} is editor-only and cannot be a component`);
      continue;
    }
    const p = parseComponentParams(name, c.obj.params);
    if (!p.ok) {
      for (const m of p.messages) add(id, m);
      continue;
    }
    parsed.set(id, p.params);
    for (const reason of entry.check?.(p.params) ?? []) add(id, reason);
    if (name === 'Agent') checkAgentTools(id, p.params, add);
  }

  edgeIssues(dsl, parsed, add);
  containerIssues(dsl, add);
  cycleIssues(dsl, add);
  if (options.names !== false) nameIssues(dsl, add);
  issues.push(...referenceIssues(dsl, parsed));
  return issues;
}

/** `check()` of host-implemented tool components, on the canvas and inside Agents. */
function toolIssues(dsl: Dsl, port: ToolPort): DslIssue[] {
  const issues: DslIssue[] = [];
  const visit = (id: string, name: string, params: Record<string, unknown>, inAgent: boolean) => {
    const entry = catalogueEntry(name);
    if (entry?.implementedBy === 'host') {
      const impl = port.get(name);
      const parsed = parseComponentParams(name, params);
      if (impl?.check && parsed.ok)
        for (const reason of impl.check(parsed.params))
          issues.push({
            componentId: id,
            componentName: labelOf(dsl, id),
            message: inAgent ? `${name} configuration error: ${reason}` : reason,
          });
    }
    if (name === 'Agent') {
      const tools = Array.isArray(params.tools)
        ? (params.tools as { component_name?: unknown; params?: unknown }[])
        : [];
      for (const t of tools)
        if (typeof t?.component_name === 'string')
          visit(id, t.component_name, (t.params as Record<string, unknown>) ?? {}, true);
    }
  };
  for (const [id, c] of Object.entries(dsl.components)) visit(id, c.obj.component_name, c.obj.params, false);
  return issues;
}

/** Throws `DslError` when the DSL has any issue. */
export function assertValidDsl(dsl: Dsl, options?: ValidateOptions): void {
  const issues = validateDsl(dsl, options);
  if (issues.length) throw new DslError(issues);
}

type Add = (id: string | null, message: string) => void;

const toolEntry = z.looseObject({
  component_name: z.string(),
  params: z.record(z.string(), z.unknown()).default({}),
});

/** Each Agent tool is instantiated and checked at load (§6.2); sub-agents recursively. */
function checkAgentTools(id: string, params: Record<string, unknown>, add: Add) {
  for (const t of (params.tools as unknown[]) ?? []) {
    const r = toolEntry.safeParse(t);
    if (!r.success) {
      add(id, 'a tool entry needs component_name and params');
      continue;
    }
    const entry = catalogueEntry(r.data.component_name);
    if (!entry) {
      add(id, `tool '${r.data.component_name}' is not a known component`);
      continue;
    }
    const p = parseComponentParams(r.data.component_name, r.data.params);
    if (!p.ok) {
      for (const m of p.messages) add(id, `${r.data.component_name} configuration error: ${m}`);
      continue;
    }
    if (r.data.component_name === 'Agent') {
      for (const reason of entry.check?.(p.params) ?? []) add(id, `sub-agent configuration error: ${reason}`);
      checkAgentTools(id, p.params, add);
    }
  }
}

function edgeIssues(dsl: Dsl, parsed: Map<string, Record<string, unknown>>, add: Add) {
  const comps = dsl.components;
  for (const [id, c] of Object.entries(comps)) {
    for (const d of c.downstream) if (!comps[d]) add(id, `its edge leads to '${d}', which does not exist`);
    const p = parsed.get(id);
    if (p) {
      for (const t of branchTargets(c.obj.component_name, p))
        if (!comps[t]) add(id, `its branch leads to '${t}', which does not exist`);
      for (const t of (p.exception_goto as string[]) ?? [])
        if (!comps[t]) add(id, `its exception route leads to '${t}', which does not exist`);
    }
  }
  const nodes = new Set((dsl.graph?.nodes ?? []).map((n) => n.id));
  if (!dsl.graph) return;
  for (const e of dsl.graph.edges) {
    if (!nodes.has(e.source)) add(null, `An edge starts at '${e.source}', which is not on the canvas`);
    else if (!nodes.has(e.target))
      add(e.source, `its edge leads to '${e.target}', which is not on the canvas`);
  }
}

function containerIssues(dsl: Dsl, add: Add) {
  const comps = dsl.components;
  const typeOf = (id: string) => comps[id]?.obj.component_name;
  for (const [id, c] of Object.entries(comps)) {
    const t = c.obj.component_name;
    if (c.parent_id) {
      const pt = typeOf(c.parent_id);
      if (!pt) add(id, `its container '${c.parent_id}' does not exist`);
      else if (pt !== 'Iteration' && pt !== 'Loop')
        add(id, `its container '${c.parent_id}' is a ${pt}, not an Iteration or Loop`);
    }
    if (t === 'IterationItem' && typeOf(c.parent_id ?? '') !== 'Iteration')
      add(id, 'an IterationItem must be inside an Iteration');
    if (t === 'LoopItem' && typeOf(c.parent_id ?? '') !== 'Loop') add(id, 'a LoopItem must be inside a Loop');
    if (t === 'ExitLoop' && !insideLoop(dsl, id)) add(id, 'ExitLoop must be inside a Loop');
    if (t === 'Iteration' || t === 'Loop') {
      const start = t === 'Iteration' ? 'IterationItem' : 'LoopItem';
      const n = Object.values(comps).filter(
        (x) => x.parent_id === id && x.obj.component_name === start,
      ).length;
      if (n !== 1)
        add(id, `${t === 'Iteration' ? 'an' : 'a'} ${t} needs exactly one ${start} inside it (found ${n})`);
    }
  }
}

export function insideLoop(dsl: Dsl, id: string): string | null {
  let cur = dsl.components[id]?.parent_id;
  const seen = new Set<string>();
  while (cur && !seen.has(cur)) {
    seen.add(cur);
    if (dsl.components[cur]?.obj.component_name === 'Loop') return cur;
    cur = dsl.components[cur]?.parent_id;
  }
  return null;
}

/** A cycle through downstream/branch edges never ends without a Loop (§3.3 "no cycle guard"). */
function cycleIssues(dsl: Dsl, add: Add) {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const reported = new Set<string>();
  const visit = (id: string) => {
    state.set(id, 'open');
    stack.push(id);
    for (const next of successorsOf(dsl, id)) {
      if (!dsl.components[next]) continue;
      if (state.get(next) === 'open') {
        const cycle = stack.slice(stack.indexOf(next));
        const key = [...cycle].sort().join('|');
        if (!reported.has(key)) {
          reported.add(key);
          add(next, `cycle without a Loop: ${[...cycle, next].map((x) => labelOf(dsl, x)).join(' → ')}`);
        }
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(id, 'done');
  };
  for (const id of Object.keys(dsl.components)) if (!state.has(id)) visit(id);
}

/** SPEC §5: component names non-empty and unique (graph `data.name`). */
function nameIssues(dsl: Dsl, add: Add) {
  if (!dsl.graph) return;
  const seen = new Map<string, string>();
  for (const n of dsl.graph.nodes) {
    if (!dsl.components[n.id]) continue;
    const name = n.data?.name;
    if (typeof name !== 'string' || !name.trim()) {
      add(n.id, 'the component name must not be empty');
      continue;
    }
    const other = seen.get(name);
    if (other) add(n.id, `the component name is also used by '${other}'; names must be unique`);
    else seen.set(name, n.id);
  }
}

/**
 * In-memory state of one run over a loaded DSL: component outputs, globals, path, history and the
 * reference buckets. `path`, `history`, `retrieval` and `globals` are the DSL's own arrays/objects,
 * so the DSL carries the updated state when the run ends (§3.12).
 */
import { catalogueEntry, outputNamesOf, type CatalogueEntry } from '../catalogue/index.js';
import type { ComponentEntry, Dsl } from '../dsl/schema.js';
import { parseComponentParams } from '../dsl/validate.js';
import { isPlainObject } from '../util/pyjson.js';
import type { ReferenceBucket } from './events.js';
import type { TextStream } from './text-stream.js';
import type { OutputSource, VariableScope } from '../variables/resolve.js';

export interface TraceEntry {
  path: string;
  tool_name: string;
  arguments: unknown;
  result: unknown;
  elapsed_time: number;
}

/** Round state of an Iteration or Loop container (kept in memory; a resumed run restarts the count). */
export interface ContainerState {
  items: unknown[];
  counter: number;
  calls: number;
  done: boolean;
}

export class ComponentState implements OutputSource {
  readonly entry: CatalogueEntry;
  readonly params: Record<string, unknown>;
  private declaredNames: Set<string> | null = null;
  outputs: Record<string, unknown> = {};
  inputs: Record<string, unknown> = {};
  note: string | undefined;
  /** the error must end the run whatever the exception settings say (loop limit) */
  fatal = false;
  /** runs in this run (per round inside a container), for the loop limit */
  runCount = 0;
  /** streamed outputs whose producer finishes after the Message consumed them */
  streams = new Map<string, TextStream>();
  startedAt = 0;
  startedMono = 0;
  finishedMono = 0;

  constructor(
    readonly id: string,
    readonly raw: ComponentEntry,
    readonly displayName: string,
  ) {
    const entry = catalogueEntry(raw.obj.component_name);
    if (!entry) throw new Error(`Unknown component: ${raw.obj.component_name}`);
    this.entry = entry;
    const parsed = parseComponentParams(raw.obj.component_name, raw.obj.params);
    if (!parsed.ok) throw new Error(`${this.label}: ${parsed.messages.join('; ')}`);
    this.params = parsed.params;
  }

  get declared(): Set<string> {
    if (!this.declaredNames) {
      const names = outputNamesOf(this.raw.obj.component_name, this.params);
      this.declaredNames = new Set(names === 'open' ? [] : names);
    }
    return this.declaredNames;
  }

  get type(): string {
    return this.raw.obj.component_name;
  }
  get label(): string {
    return this.displayName || this.id;
  }
  get downstream(): string[] {
    return this.raw.downstream;
  }
  get parentId(): string | null {
    return this.raw.parent_id ?? null;
  }
  get error(): string | null {
    const e = this.outputs._ERROR;
    return typeof e === 'string' && e ? e : null;
  }

  /** Restore output values saved into the DSL (a resumed run keeps pre-pause outputs, §3.8). */
  restoreOutputs() {
    const decl = this.raw.obj.params.outputs;
    if (!isPlainObject(decl)) return;
    for (const [k, v] of Object.entries(decl)) {
      if (isPlainObject(v) && 'value' in v && v.value !== null && v.value !== undefined)
        this.outputs[k] = v.value;
    }
  }
}

export class CanvasState implements VariableScope {
  readonly components = new Map<string, ComponentState>();
  readonly containers = new Map<string, ContainerState>();
  readonly trace: { component_id: string; trace: TraceEntry[] }[] = [];
  overrides?: Map<string, unknown>;

  constructor(readonly dsl: Dsl) {
    const names = new Map<string, string>();
    for (const n of dsl.graph?.nodes ?? [])
      if (typeof n.data?.name === 'string' && n.data.name) names.set(n.id, n.data.name);
    for (const [id, entry] of Object.entries(dsl.components))
      this.components.set(
        id,
        new ComponentState(id, entry, names.get(id) ?? (id === 'begin' ? 'begin' : '')),
      );
  }

  get globals(): Record<string, unknown> {
    return this.dsl.globals!;
  }
  get path(): string[] {
    return this.dsl.path;
  }
  get history(): [string, unknown, ...unknown[]][] {
    return this.dsl.history;
  }

  get(id: string): ComponentState {
    const c = this.components.get(id);
    if (!c) throw new Error(`Component '${id}' does not exist`);
    return c;
  }

  component(id: string): OutputSource | undefined {
    return this.components.get(id);
  }

  componentOutputs(id: string): Record<string, unknown> | undefined {
    return this.components.get(id)?.outputs;
  }

  childrenOf(parentId: string): ComponentState[] {
    return [...this.components.values()].filter((c) => c.parentId === parentId);
  }

  /** The IterationItem/LoopItem of a container. */
  startChildOf(parentId: string): ComponentState | undefined {
    return this.childrenOf(parentId).find((c) => c.type === 'IterationItem' || c.type === 'LoopItem');
  }

  container(id: string): ContainerState {
    let s = this.containers.get(id);
    if (!s) {
      s = { items: [], counter: 0, calls: 0, done: false };
      this.containers.set(id, s);
    }
    return s;
  }

  /** The bucket citations of this run go into (the last `retrieval` entry, §3.1). */
  currentBucket(): ReferenceBucket {
    const r = this.dsl.retrieval;
    const last = r[r.length - 1];
    if (isPlainObject(last) && isPlainObject(last.chunks) && isPlainObject(last.doc_aggs))
      return last as unknown as ReferenceBucket;
    const fresh: ReferenceBucket = { chunks: {}, doc_aggs: {} };
    r.push(fresh);
    return fresh;
  }

  addTrace(componentId: string, entry: TraceEntry) {
    let t = this.trace.find((x) => x.component_id === componentId);
    if (!t) {
      t = { component_id: componentId, trace: [] };
      this.trace.push(t);
    }
    t.trace.push(entry);
  }
}

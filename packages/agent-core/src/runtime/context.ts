/** The ComponentContext a component runs with, bound to one run and one component. */
import type { ComponentContext, HistoryTurn, MessagePlan, RenderOptions } from '../components/types.js';
import type { DocAggregate, ResolvedPorts, RetrievedChunk, TokenUsage, UploadDescriptor } from '../ports.js';
import { CancelledError } from '../util/errors.js';
import { isPlainObject } from '../util/pyjson.js';
import { valueToText } from '../variables/render.js';
import { replaceRefs, findRefs } from '../variables/refs.js';
import { isReference, resolveRef, writeRef } from '../variables/resolve.js';
import type { ComponentSignal } from './component-signal.js';
import type { ReferenceBucket } from './events.js';
import { addToBucket } from './references.js';
import type { CanvasState, ComponentState, ContainerState, TraceEntry } from './state.js';
import type { TextStream } from './text-stream.js';

/** What a context needs from the run driving it. */
export interface RunServices {
  state: CanvasState;
  ports: ResolvedPorts;
  isCancelled(): Promise<boolean>;
  addUsage(u: TokenUsage): void;
  /** the component id whose trace a tool call belongs to (a sub-agent's calls go to the top agent) */
  traceOwner?: string;
  debug: boolean;
  loopRoundCap: number;
}

export class RunComponentContext implements ComponentContext {
  messagePlan: MessagePlan | null = null;

  constructor(
    private readonly run: RunServices,
    private readonly c: ComponentState,
    private readonly componentSignal: ComponentSignal,
    readonly requestInputs: Record<string, unknown> | null,
  ) {}

  get signal(): AbortSignal {
    return this.componentSignal.signal;
  }

  get id() {
    return this.c.id;
  }
  get type() {
    return this.c.type;
  }
  get name() {
    return this.c.label;
  }
  get params() {
    return this.c.params;
  }
  get parentId() {
    return this.c.parentId;
  }
  get downstream() {
    return this.c.downstream;
  }
  get ports() {
    return this.run.ports;
  }
  get debug() {
    return this.run.debug;
  }

  setOutput(name: string, value: unknown) {
    this.c.outputs[name] = value;
  }
  output(name: string) {
    return this.c.outputs[name];
  }
  setInputs(inputs: Record<string, unknown>) {
    this.c.inputs = inputs;
  }
  setError(message: string) {
    this.c.outputs._ERROR = message;
  }
  setNote(note: string) {
    this.c.note = note;
  }
  streamOutput(name: string, stream: TextStream) {
    this.c.outputs[name] = stream;
    this.c.streams.set(name, stream);
  }
  setMessagePlan(plan: MessagePlan) {
    this.messagePlan = plan;
  }

  resolve(ref: string) {
    return resolveRef(this.run.state, ref);
  }

  async render(text: string, options: RenderOptions = {}): Promise<string> {
    const refs = findRefs(text);
    if (!refs.length) return text;
    const values = new Map<string, string>();
    for (const ref of refs) values.set(ref, await valueToText(await this.resolve(ref), options.listJoin));
    return replaceRefs(text, (ref) => values.get(ref) ?? '');
  }

  isReference(text: string) {
    return isReference(this.run.state, text);
  }

  writeVariable(ref: string, value: unknown) {
    writeRef(this.run.state, ref, value);
  }

  globals() {
    return this.run.state.globals;
  }

  history(): HistoryTurn[] {
    const turns: HistoryTurn[] = [];
    const h = this.run.state.history;
    // The last entry is the current user turn (§6.1 "excluding the current user turn").
    for (const [role, content] of h.slice(0, -1)) {
      const r = role === 'assistant' ? 'assistant' : 'user';
      let text: string;
      if (typeof content === 'string') text = content;
      else if (isPlainObject(content) && typeof content.content === 'string') text = content.content;
      else text = content === null || content === undefined ? '' : JSON.stringify(content);
      turns.push({ role: r, content: text });
    }
    return turns;
  }

  typeOf(id: string) {
    return this.run.state.components.get(id)?.type;
  }
  displayNameOf(id: string) {
    return this.run.state.components.get(id)?.label ?? id;
  }

  async addReferences(chunks: RetrievedChunk[], docAggs: DocAggregate[]) {
    await addToBucket(this.run.state.currentBucket(), chunks, docAggs);
  }
  currentReference(): ReferenceBucket {
    return this.run.state.currentBucket();
  }

  async filesToText(value: unknown): Promise<string[]> {
    if (value === null || value === undefined) return [];
    const list = Array.isArray(value) ? value : [value];
    const out: string[] = [];
    for (const f of list) {
      if (typeof f === 'string') out.push(f);
      else if (isPlainObject(f)) {
        if (!this.run.ports.storage) throw new Error('File inputs need a storage port');
        out.push(await this.run.ports.storage.fileToText(f as UploadDescriptor, { signal: this.signal }));
      }
    }
    return out;
  }

  async checkCancelled() {
    if (this.componentSignal.aborted || (await this.run.isCancelled())) throw new CancelledError();
  }

  sleep(ms: number) {
    return this.run.ports.clock.sleep(ms, this.signal);
  }

  recordTrace(entry: TraceEntry) {
    this.run.state.addTrace(this.run.traceOwner ?? this.c.id, entry);
  }

  addUsage(u: TokenUsage) {
    this.run.addUsage(u);
  }

  container(id: string): ContainerState {
    return this.run.state.container(id);
  }
  childIds(containerId: string) {
    return this.run.state.childrenOf(containerId).map((c) => c.id);
  }
  outputsOf(id: string) {
    return this.run.state.componentOutputs(id);
  }
  paramsOf(id: string) {
    return this.run.state.components.get(id)?.params;
  }
  get loopRoundCap() {
    return this.run.loopRoundCap;
  }
}

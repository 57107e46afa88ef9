/**
 * The context of a component an Agent instantiates for itself (a sub-agent, a Retrieval or host tool
 * in its `tools`): it reads the run like its Agent, keeps its own params and outputs, never streams,
 * and its tool calls land in the top Agent's trace under a `-->` path.
 */
import type { MessagePlan } from './types.js';
import type { ComponentContext, RenderOptions } from './types.js';
import type { TextStream } from '../runtime/text-stream.js';
import type { TraceEntry } from '../runtime/state.js';

export class NestedContext implements ComponentContext {
  readonly outputs: Record<string, unknown> = {};
  readonly downstream: readonly string[] = [];
  readonly requestInputs = null;
  private error: string | null = null;

  constructor(
    private readonly parent: ComponentContext,
    readonly id: string,
    readonly type: string,
    readonly params: Record<string, unknown>,
    readonly name: string,
  ) {}

  get parentId() {
    return this.parent.parentId;
  }
  get signal() {
    return this.parent.signal;
  }
  get ports() {
    return this.parent.ports;
  }
  get debug() {
    return true;
  }
  get loopRoundCap() {
    return this.parent.loopRoundCap;
  }
  get failure() {
    return this.error;
  }

  setOutput(name: string, value: unknown) {
    this.outputs[name] = value;
  }
  output(name: string) {
    return this.outputs[name];
  }
  setInputs() {}
  setError(message: string) {
    this.error = message;
    this.outputs._ERROR = message;
  }
  setNote(note: string) {
    this.parent.setNote(note);
  }
  streamOutput(name: string, stream: TextStream) {
    this.outputs[name] = stream;
  }
  setMessagePlan(_plan: MessagePlan) {
    throw new Error('A Message cannot run inside an Agent');
  }
  resolve(ref: string) {
    return this.parent.resolve(ref);
  }
  render(text: string, options?: RenderOptions) {
    return this.parent.render(text, options);
  }
  isReference(text: string) {
    return this.parent.isReference(text);
  }
  writeVariable(ref: string, value: unknown) {
    this.parent.writeVariable(ref, value);
  }
  globals() {
    return this.parent.globals();
  }
  history() {
    return this.parent.history();
  }
  typeOf(id: string) {
    return this.parent.typeOf(id);
  }
  displayNameOf(id: string) {
    return this.parent.displayNameOf(id);
  }
  addReferences(...args: Parameters<ComponentContext['addReferences']>) {
    return this.parent.addReferences(...args);
  }
  currentReference() {
    return this.parent.currentReference();
  }
  filesToText(value: unknown) {
    return this.parent.filesToText(value);
  }
  checkCancelled() {
    return this.parent.checkCancelled();
  }
  sleep(ms: number) {
    return this.parent.sleep(ms);
  }
  recordTrace(entry: TraceEntry) {
    this.parent.recordTrace(entry);
  }
  addUsage(...args: Parameters<ComponentContext['addUsage']>) {
    this.parent.addUsage(...args);
  }
  container(id: string) {
    return this.parent.container(id);
  }
  childIds(id: string) {
    return this.parent.childIds(id);
  }
  outputsOf(id: string) {
    return this.parent.outputsOf(id);
  }
  paramsOf(id: string) {
    return this.parent.paramsOf(id);
  }
}

/** What a component implementation sees of the run. */
import type { DocAggregate, ResolvedPorts, RetrievedChunk, TokenUsage } from '../ports.js';
import type { MessageData, MessageEndData, ReferenceBucket } from '../runtime/events.js';
import type { ContainerState, TraceEntry } from '../runtime/state.js';
import type { TextStream } from '../runtime/text-stream.js';

/** How a Message's text reaches the client, run by the runtime in post-processing (§3.2). */
export interface MessagePlan {
  pieces(): AsyncIterable<MessageData>;
  /** after the last piece: the `message_end` data (reference, attachment, status) */
  finish(): Promise<MessageEndData>;
}

export interface RenderOptions {
  /** join list values with this (StringTransform merge, UserFillUp tips) instead of JSON */
  listJoin?: string;
}

export interface HistoryTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface ComponentContext {
  readonly id: string;
  readonly type: string;
  /** display name, or the id */
  readonly name: string;
  readonly params: Record<string, unknown>;
  readonly parentId: string | null;
  readonly downstream: readonly string[];
  readonly signal: AbortSignal;
  readonly ports: ResolvedPorts;
  /** request `inputs` for Begin and UserFillUp; null for others and for a UserFillUp being paused */
  readonly requestInputs: Record<string, unknown> | null;
  /** debug run: values given for input elements */
  readonly debug: boolean;

  setOutput(name: string, value: unknown): void;
  output(name: string): unknown;
  /** values recorded as this run's inputs (node_finished.inputs) */
  setInputs(inputs: Record<string, unknown>): void;
  setError(message: string): void;
  /** a note for node_finished (e.g. model fallback) */
  setNote(note: string): void;
  /** an output that is a live model stream; the component finishes after a Message consumed it */
  streamOutput(name: string, stream: TextStream): void;
  /** Message only: what to stream in post-processing */
  setMessagePlan(plan: MessagePlan): void;

  resolve(ref: string): Promise<unknown>;
  render(text: string, options?: RenderOptions): Promise<string>;
  /** §4 reference test */
  isReference(text: string): boolean;
  writeVariable(ref: string, value: unknown): void;
  globals(): Record<string, unknown>;
  /** conversation turns before the current user turn (assistant turns read as their `content`) */
  history(): HistoryTurn[];
  /** type of a component by id */
  typeOf(id: string): string | undefined;
  displayNameOf(id: string): string;

  addReferences(chunks: RetrievedChunk[], docAggs: DocAggregate[]): Promise<void>;
  currentReference(): ReferenceBucket;
  /** upload descriptors (or already converted strings) → strings (§5 file inputs) */
  filesToText(value: unknown): Promise<string[]>;

  /** throws CancelledError when the run was cancelled */
  checkCancelled(): Promise<void>;
  sleep(ms: number): Promise<void>;
  recordTrace(entry: TraceEntry): void;
  addUsage(usage: TokenUsage): void;

  /** round state of this component's container (Iteration/Loop), or of itself for a container */
  container(id: string): ContainerState;
  /** children of a container; the start item */
  childIds(containerId: string): string[];
  outputsOf(id: string): Record<string, unknown> | undefined;
  /** parsed params of another component (a container reading its own declaration) */
  paramsOf(id: string): Record<string, unknown> | undefined;
  /** rounds any Loop may run in this run, whatever its maximum_loop_count says */
  readonly loopRoundCap: number;
}

export interface ComponentImpl {
  invoke(ctx: ComponentContext): Promise<void>;
}

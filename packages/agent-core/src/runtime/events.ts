/** Run events of API.md §13.2 / AGENTS.md §7.2, exactly as they go on the wire after `data:`. */
import type { Attachment } from '../ports.js';

export interface ReferenceChunk {
  id: string;
  content: string;
  document_id: string;
  document_name: string;
  dataset_id: string;
  image_id: string;
  positions: unknown[];
  url: string | null;
  similarity: number;
  vector_similarity: number;
  term_similarity: number;
  doc_type: string;
}

/** The current run's reference bucket: both parts are objects (§7.2). */
export interface ReferenceBucket {
  chunks: Record<string, ReferenceChunk>;
  doc_aggs: Record<string, { doc_name: string; doc_id: string; count: number; url?: string | null }>;
}

export interface WorkflowStartedData {
  inputs: Record<string, unknown>;
}
export interface NodeStartedData {
  inputs: null;
  created_at: number;
  component_id: string;
  component_name: string;
  component_type: string;
  thoughts: string;
}
export interface MessageData {
  content: string;
  start_to_think?: true;
  end_to_think?: true;
}
export interface MessageEndData {
  reference?: ReferenceBucket;
  attachment?: Attachment;
  status?: unknown;
}
export interface NodeFinishedData {
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  component_id: string;
  component_name: string;
  component_type: string;
  error: string | null;
  elapsed_time: number;
  created_at: number;
  /** Lectern: e.g. the model fallback note of API.md §13.2 */
  note?: string;
}
export interface UserInputsData {
  inputs: Record<string, unknown>;
  tips: string;
}
export interface WorkflowFinishedData {
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown> | string;
  elapsed_time: number;
  created_at: number;
}

interface EventMap {
  workflow_started: WorkflowStartedData;
  node_started: NodeStartedData;
  message: MessageData;
  message_end: MessageEndData;
  node_finished: NodeFinishedData;
  user_inputs: UserInputsData;
  workflow_finished: WorkflowFinishedData;
}

export type RunEventName = keyof EventMap;

export type RunEventOf<E extends RunEventName> = {
  event: E;
  message_id: string;
  /** epoch second at run start, the same for every event of the run */
  created_at: number;
  task_id: string;
  data: EventMap[E];
};

/** An exception that escaped the run: `{code: 500, message, data: false}` without an `event` key. */
export interface RunErrorEvent {
  code: 500;
  message: string;
  data: false;
}

export type RunEvent = { [E in RunEventName]: RunEventOf<E> }[RunEventName] | RunErrorEvent;

export function isErrorEvent(e: RunEvent): e is RunErrorEvent {
  return !('event' in e);
}

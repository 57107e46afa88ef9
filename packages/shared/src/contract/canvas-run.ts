/**
 * Agent runs (API.md §13.2, AGENTS.md §7): the request bodies of the two completion routes, the run
 * events (sent bare, without the `{code, message}` envelope), the stored run log of `trace`, and
 * upload descriptors of file inputs.
 */
import { z } from 'zod';
import { epochMs, jsonObject, jsonValue } from './common.js';

/** A Begin/UserFillUp input as the run form sends it (AGENTS.md §5): the definition plus `value`. */
const runInput = z.looseObject({
  name: z.string().optional(),
  type: z.string().optional(),
  optional: z.boolean().optional(),
  options: z.array(jsonValue).optional(),
  /** Typed by the input's `type` (text, number, boolean, upload descriptors…). */
  value: jsonValue.optional(),
});

/** An upload descriptor of `upload` (AGENTS.md §5), also what a file input's `value` holds. */
export const canvasUploadSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  size: z.number(),
  extension: z.string(),
  mime_type: z.string(),
  created_by: z.string(),
  created_at: z.number(),
  preview_url: z.string().nullable(),
});
export type CanvasUpload = z.infer<typeof canvasUploadSchema>;

const runFile = z.looseObject({ id: z.string(), name: z.string().optional() });

/** A chunk of a run's reference bucket (AGENTS.md §7.2). */
const runReferenceChunk = z.object({
  id: z.string(),
  content: z.string(),
  document_id: z.string(),
  document_name: z.string(),
  dataset_id: z.string(),
  image_id: z.string(),
  positions: z.array(jsonValue),
  url: z.string().nullable(),
  similarity: z.number(),
  vector_similarity: z.number(),
  term_similarity: z.number(),
  doc_type: z.string(),
});

/** `{chunks: {<key>: chunk}, doc_aggs: {<doc name>: agg}}` — both objects, not lists. */
export const runReferenceSchema = z.object({
  chunks: z.record(z.string(), runReferenceChunk),
  doc_aggs: z.record(
    z.string(),
    z.looseObject({ doc_name: z.string(), doc_id: z.string(), count: z.number() }),
  ),
});
export type RunReference = z.infer<typeof runReferenceSchema>;

const runEventFields = {
  message_id: z.string(),
  /** Epoch second at run start, the same for every event of the run. */
  created_at: z.number(),
  task_id: z.string(),
  /** Session runs (`/v1/canvas/<id>/completion`). */
  session_id: z.string().optional(),
};

/** One step of a component's run log (tool calls and internal steps). */
export const traceStepSchema = z.object({
  path: z.string(),
  tool_name: z.string(),
  arguments: jsonValue,
  result: jsonValue,
  elapsed_time: z.number(),
});

/** `node_finished` data. Not strict: components may add keys (e.g. `note` on a model fallback). */
export const nodeFinishedSchema = z.object({
  inputs: jsonObject,
  outputs: jsonObject,
  component_id: z.string(),
  component_name: z.string(),
  component_type: z.string(),
  error: z.string().nullable(),
  elapsed_time: z.number(),
  created_at: z.number(),
  /** The model fallback note of API.md §13.2. */
  note: z.string().optional(),
  /** `return_trace` of the session route: the running list of finished nodes. */
  trace: z.array(z.object({ component_id: z.string(), trace: z.array(jsonObject) })).optional(),
});

/**
 * One event of an agent run (API.md §13.2), sent bare (`data:{"event":…}`, no `{code, message}`
 * envelope). A failure is `{code: 500, message, data: false}` instead, without `event`.
 */
export const canvasRunEventSchema = z.discriminatedUnion('event', [
  z.object({
    event: z.literal('workflow_started'),
    ...runEventFields,
    data: z.object({ inputs: jsonObject }),
  }),
  z.object({
    event: z.literal('node_started'),
    ...runEventFields,
    data: z.object({
      inputs: z.null(),
      created_at: z.number(),
      component_id: z.string(),
      component_name: z.string(),
      component_type: z.string(),
      thoughts: z.string(),
    }),
  }),
  z.object({
    event: z.literal('message'),
    ...runEventFields,
    data: z.object({
      content: z.string(),
      start_to_think: z.literal(true).optional(),
      end_to_think: z.literal(true).optional(),
      /** hex mp3 when the Message component auto-plays */
      audio_binary: z.string().optional(),
    }),
  }),
  z.object({
    event: z.literal('message_end'),
    ...runEventFields,
    data: z.object({
      reference: runReferenceSchema.optional(),
      attachment: z.object({ doc_id: z.string(), format: z.string(), file_name: z.string() }).optional(),
      /** The Message component's `status` param, as configured. */
      status: jsonValue.optional(),
    }),
  }),
  z.object({ event: z.literal('node_finished'), ...runEventFields, data: nodeFinishedSchema }),
  z.object({
    event: z.literal('user_inputs'),
    ...runEventFields,
    data: z.object({ inputs: jsonObject, tips: z.string() }),
  }),
  z.object({
    event: z.literal('workflow_finished'),
    ...runEventFields,
    data: z.object({
      inputs: jsonObject,
      /** The last component's outputs, or "Task has been canceled". */
      outputs: z.union([jsonObject, z.string()]),
      elapsed_time: z.number(),
      created_at: z.number(),
    }),
  }),
]);
export type CanvasRunEvent = z.infer<typeof canvasRunEventSchema>;

/** The error event of a run: ends the stream; the run is cancelled and nothing is saved. */
export const canvasRunErrorSchema = z.strictObject({
  code: z.number(),
  message: z.string(),
  data: z.literal(false),
});

export const CANVAS_RUN_STATUSES = ['running', 'finished', 'paused', 'error', 'cancelled'] as const;
export const canvasRunStatusSchema = z.enum(CANVAS_RUN_STATUSES);

/**
 * `trace`: the stored log of one run — every event so far (a client that lost the stream replays
 * them; poll while `status` is `running`) and the components' tool-call steps.
 */
export const canvasRunLogSchema = z.strictObject({
  message_id: z.string(),
  task_id: z.string(),
  canvas_id: z.string(),
  status: canvasRunStatusSchema,
  events: z.array(z.union([canvasRunEventSchema, canvasRunErrorSchema])),
  trace: z.array(z.object({ component_id: z.string(), trace: z.array(traceStepSchema) })),
  update_time: epochMs,
});
export type CanvasRunLog = z.infer<typeof canvasRunLogSchema>;

export const canvasCompletionBody = z.object({
  id: z.string(),
  query: z.string().optional(),
  files: z.array(runFile).optional(),
  inputs: z.record(z.string(), runInput).optional(),
  /** The end user; defaults to the caller. */
  user_id: z.string().optional(),
});

export const canvasSessionCompletionBody = z.object({
  query: z.string().optional(),
  /** Alias of `query` (API clients). */
  question: z.string().optional(),
  inputs: z.record(z.string(), runInput).optional(),
  files: z.array(runFile).optional(),
  session_id: z.string().optional(),
  user_id: z.string().optional(),
  return_trace: z.boolean().optional(),
});

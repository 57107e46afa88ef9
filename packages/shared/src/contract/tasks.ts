/**
 * Typed task contract (ARCHITECTURE.md "every long job is a row"): the kinds of task rows, one zod
 * schema per kind for the row's `payload`, shared by the code that queues a task and the handler
 * that runs it. Workers claim by kind; progress, lease and cancel work the same for every kind.
 */
import { z } from 'zod';

export const TASK_KINDS = ['parse', 'graphrag', 'raptor', 'mindmap', 'agent_run'] as const;
export const taskKindSchema = z.enum(TASK_KINDS);
export type TaskKind = z.infer<typeof taskKindSchema>;

/** KB-level jobs (graph, RAPTOR, mind map) work on the listed documents, or all of the KB's when absent. */
const kbJobPayload = z.object({
  kb_id: z.string(),
  doc_ids: z.array(z.string()).optional(),
});

export const taskPayloadSchemas = {
  /** A parse task's document and page/row range live in the row's own columns (API.md §18). */
  parse: z.object({}),
  graphrag: kbJobPayload,
  raptor: kbJobPayload,
  mindmap: kbJobPayload,
  /** One agent run (API.md §13.2); `session_id` is "" for the canvas's own conversation (editor runs). */
  agent_run: z.object({
    canvas_id: z.string(),
    session_id: z.string(),
    message_id: z.string(),
    user_id: z.string(),
    /** The run's request, to run it again when its process stopped before it ended. */
    request: z
      .object({
        query: z.string(),
        files: z.array(z.json()),
        inputs: z.record(z.string(), z.json()),
      })
      .optional(),
  }),
} satisfies Record<TaskKind, z.ZodType>;

export type TaskPayload<K extends TaskKind> = z.infer<(typeof taskPayloadSchemas)[K]>;

/** `task_type` as API.md §18 presents it: "" for parsing, the kind's name otherwise. */
export function taskTypeOf(kind: TaskKind): string {
  return kind === 'parse' ? '' : kind;
}

/** Parses a stored payload for its kind; throws a readable error when the row does not match. */
export function parseTaskPayload<K extends TaskKind>(kind: K, payload: unknown): TaskPayload<K> {
  const result = taskPayloadSchemas[kind].safeParse(payload ?? {});
  if (!result.success) {
    throw new Error(
      `Task payload of kind "${kind}" is invalid: ${result.error.issues[0]?.message ?? 'unknown'}`,
    );
  }
  return result.data as TaskPayload<K>;
}

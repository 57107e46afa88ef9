/**
 * `/v1/canvas` — agents (API.md §13): canvases, their versions, runs (SSE), sessions, uploads,
 * run logs. The DSL itself is free-form JSON here: its full schema lives in `@lectern/agent-core`
 * (which `shared` must not import); the server validates every saved DSL with `validateDsl`.
 * `test_db_connect` (§13) belongs with the ExeSQL tool and is declared where that tool lands.
 */
import { z } from 'zod';
import { done, epochMs, jsonObject, jsonValue, timeFields } from './common.js';
import { kbPermissionSchema } from './enums.js';
import { route } from './route.js';
import {
  canvasCompletionBody,
  canvasRunEventSchema,
  canvasRunLogSchema,
  canvasSessionCompletionBody,
  canvasUploadSchema,
} from './canvas-run.js';

/** `user_canvas.canvas_category` (API.md §18). */
export const CANVAS_CATEGORIES = ['agent_canvas', 'dataflow_canvas'] as const;
export const canvasCategorySchema = z.enum(CANVAS_CATEGORIES);
export type CanvasCategory = z.infer<typeof canvasCategorySchema>;

/**
 * An agent DSL (API.md §13.1, AGENTS.md §2): `{components, graph, history, path, retrieval, globals,
 * …}`. Free-form on purpose: the editor keeps keys of its own, and a DSL saved by RAGFlow's editor
 * must round-trip unchanged; agent-core's `dslSchema` is the real check.
 */
export const canvasDslSchema = jsonObject;
export type CanvasDsl = z.infer<typeof canvasDslSchema>;

/** Query-string numbers arrive as strings. */
const pageNumber = z.coerce.number<number | string>().int().min(0).optional();

// ---- Canvases ----------------------------------------------------------------------------------

/** A row of `list` / `listteam`. */
export const canvasListItemSchema = z.strictObject({
  id: z.string(),
  avatar: z.string().nullable(),
  title: z.string(),
  description: z.string().nullable(),
  permission: kbPermissionSchema,
  /** The owner's user id (= its tenant). */
  tenant_id: z.string(),
  nickname: z.string(),
  tenant_avatar: z.string().nullable(),
  update_time: epochMs,
  canvas_category: canvasCategorySchema,
});
export type CanvasListItem = z.infer<typeof canvasListItemSchema>;

const canvasRowFields = {
  id: z.string(),
  avatar: z.string().nullable(),
  title: z.string(),
  dsl: canvasDslSchema,
  description: z.string().nullable(),
  permission: kbPermissionSchema,
  canvas_category: canvasCategorySchema,
  user_id: z.string(),
  ...timeFields,
};

/** `get`: the canvas with its owner's name and avatar. */
export const canvasSchema = z.strictObject({
  ...canvasRowFields,
  nickname: z.string(),
  tenant_avatar: z.string().nullable(),
});
export type Canvas = z.infer<typeof canvasSchema>;

/** `getsse` (share page, beta token): the canvas row. */
export const canvasRowSchema = z.strictObject(canvasRowFields);

/** `set`: the saved canvas, as the request echo plus `id`, `user_id` and the parsed DSL. */
export const savedCanvasSchema = z.strictObject({
  id: z.string(),
  user_id: z.string(),
  title: z.string(),
  dsl: canvasDslSchema,
  canvas_category: canvasCategorySchema,
  description: z.string().nullable(),
  avatar: z.string().nullable(),
  permission: kbPermissionSchema,
  update_time: epochMs,
});
export type SavedCanvas = z.infer<typeof savedCanvasSchema>;

/** A row of `getlistversion` (newest first). */
export const canvasVersionItemSchema = z.strictObject({
  id: z.string(),
  /** `<canvas title>_<YYYY_MM_DD_HH_MM_SS>` */
  title: z.string(),
  user_canvas_id: z.string(),
  ...timeFields,
});
export type CanvasVersionItem = z.infer<typeof canvasVersionItemSchema>;

/** `getversion`: one version with its DSL. */
export const canvasVersionSchema = z.strictObject({
  ...canvasVersionItemSchema.shape,
  description: z.string().nullable(),
  dsl: canvasDslSchema,
});
export type CanvasVersion = z.infer<typeof canvasVersionSchema>;

/** A template of the gallery (`canvas_template`, API.md §18): title/description per language. */
export const canvasTemplateSchema = z.strictObject({
  id: z.string(),
  avatar: z.string().nullable(),
  title: z.record(z.string(), z.string()),
  description: z.record(z.string(), z.string()),
  /** The gallery group ("Recommended", "Agent", …). */
  canvas_type: z.string(),
  canvas_category: canvasCategorySchema,
  dsl: canvasDslSchema,
});
export type CanvasTemplate = z.infer<typeof canvasTemplateSchema>;

// ---- Sessions ----------------------------------------------------------------------------------

/** A stored message of an agent session: `{role, content, id?, created_at?, files?}` (extra keys kept). */
const sessionMessage = z.looseObject({ role: z.string(), content: z.string() });

/** An agent session (`api_4_conversation` row with `source: "agent"`). */
export const canvasSessionSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  /** The canvas id. */
  dialog_id: z.string(),
  user_id: z.string(),
  exp_user_id: z.string().nullable(),
  message: z.array(sessionMessage),
  source: z.literal('agent'),
  /** Absent when listed with `dsl=false`. */
  dsl: canvasDslSchema.optional(),
  /** One entry per answer (run reference buckets). */
  reference: z.array(jsonValue),
  tokens: z.number(),
  duration: z.number(),
  round: z.number(),
  thumb_up: z.number(),
  errors: z.string().nullable(),
  ...timeFields,
});
export type CanvasSession = z.infer<typeof canvasSessionSchema>;

/** `{name: {value}}` of `debug`: values that replace the component's references for one run. */
const debugParams = z.record(z.string(), z.looseObject({ value: jsonValue.optional() }));

/** An input the component reads (`input_elements`). */
export const inputElementSchema = z.object({
  key: z.string(),
  name: z.string(),
  type: z.string().optional(),
  value: jsonValue.optional(),
});

const canvasIdQuery = z.object({ id: z.string(), component_id: z.string() });

export const canvasContract = {
  templates: route({
    method: 'GET',
    path: '/v1/canvas/templates',
    auth: 'login',
    data: z.array(canvasTemplateSchema),
  }),
  list: route({
    method: 'GET',
    path: '/v1/canvas/list',
    auth: 'login',
    query: z.object({
      keywords: z.string().optional(),
      page: pageNumber,
      page_size: pageNumber,
      orderby: z.string().optional(),
      desc: z.string().optional(),
      canvas_category: canvasCategorySchema.optional(),
      /** Comma-separated tenant ids. */
      owner_ids: z.string().optional(),
    }),
    data: z.strictObject({ canvas: z.array(canvasListItemSchema), total: z.number() }),
  }),
  listteam: route({
    method: 'GET',
    path: '/v1/canvas/listteam',
    auth: 'login',
    query: z.object({
      keywords: z.string().optional(),
      page: pageNumber,
      page_size: pageNumber,
      orderby: z.string().optional(),
      desc: z.string().optional(),
    }),
    /** The key is named `kbs` (API.md §13). */
    data: z.strictObject({ kbs: z.array(canvasListItemSchema), total: z.number() }),
  }),
  get: route({ method: 'GET', path: '/v1/canvas/get/:canvas_id', auth: 'login', data: canvasSchema }),
  getsse: route({
    method: 'GET',
    path: '/v1/canvas/getsse/:canvas_id',
    auth: 'beta',
    data: canvasRowSchema,
  }),
  rm: route({
    method: 'POST',
    path: '/v1/canvas/rm',
    auth: 'login',
    body: z.object({ canvas_ids: z.array(z.string()) }),
    data: done,
  }),
  set: route({
    method: 'POST',
    path: '/v1/canvas/set',
    auth: 'login',
    body: z.object({
      /** An object, or its JSON text. */
      dsl: z.union([canvasDslSchema, z.string()]),
      title: z.string(),
      /** Absent = create. */
      id: z.string().optional(),
      canvas_category: canvasCategorySchema.optional(),
      description: z.string().nullable().optional(),
      avatar: z.string().nullable().optional(),
      permission: kbPermissionSchema.optional(),
    }),
    data: savedCanvasSchema,
  }),
  setting: route({
    method: 'POST',
    path: '/v1/canvas/setting',
    auth: 'login',
    body: z.object({
      id: z.string(),
      title: z.string(),
      permission: kbPermissionSchema,
      description: z.string().nullable().optional(),
      avatar: z.string().nullable().optional(),
    }),
    /** Rows updated. */
    data: z.number(),
  }),
  getlistversion: route({
    method: 'GET',
    path: '/v1/canvas/getlistversion/:canvas_id',
    auth: 'login',
    data: z.array(canvasVersionItemSchema),
  }),
  getversion: route({
    method: 'GET',
    path: '/v1/canvas/getversion/:version_id',
    auth: 'login',
    data: canvasVersionSchema,
  }),
  reset: route({
    method: 'POST',
    path: '/v1/canvas/reset',
    auth: 'login',
    body: z.object({ id: z.string() }),
    /** The reset DSL (also saved). */
    data: canvasDslSchema,
  }),
  /** A run of the canvas's own conversation (the editor's Run panel). */
  completion: route({
    method: 'POST',
    path: '/v1/canvas/completion',
    auth: 'login',
    kind: 'sse',
    framing: 'bare',
    body: canvasCompletionBody,
    event: canvasRunEventSchema,
  }),
  /** A session run: forwards `message`/`message_end` (+ `node_finished` with `return_trace`), then `[DONE]`. */
  sessionCompletion: route({
    method: 'POST',
    path: '/v1/canvas/:canvas_id/completion',
    auth: 'login',
    kind: 'sse',
    framing: 'bare',
    body: canvasSessionCompletionBody,
    event: canvasRunEventSchema,
  }),
  cancel: route({ method: 'PUT', path: '/v1/canvas/cancel/:task_id', auth: 'login', data: done }),
  debug: route({
    method: 'POST',
    path: '/v1/canvas/debug',
    auth: 'login',
    body: z.object({ id: z.string(), component_id: z.string(), params: debugParams }),
    /** The component's outputs after one run (streams collected to text). */
    data: jsonObject,
  }),
  inputElements: route({
    method: 'GET',
    path: '/v1/canvas/input_elements',
    auth: 'login',
    query: canvasIdQuery,
    data: z.array(inputElementSchema),
  }),
  inputForm: route({
    method: 'GET',
    path: '/v1/canvas/input_form',
    auth: 'login',
    query: canvasIdQuery,
    data: z.record(
      z.string(),
      z.looseObject({ type: z.string(), name: z.string(), value: jsonValue.optional() }),
    ),
  }),
  /** Files for a run's file inputs (public, like RAGFlow's): a list when several were sent. */
  upload: route({
    method: 'POST',
    path: '/v1/canvas/upload/:canvas_id',
    auth: 'public',
    query: z.object({ url: z.string().optional() }),
    form: { fields: z.object({}), file: 'file' },
    data: z.union([canvasUploadSchema, z.array(canvasUploadSchema)]),
  }),
  /** The stored log of one run, or `{}` when there is none (public: the ids are unguessable). */
  trace: route({
    method: 'GET',
    path: '/v1/canvas/trace',
    auth: 'public',
    query: z.object({ canvas_id: z.string(), message_id: z.string() }),
    data: z.union([canvasRunLogSchema, z.strictObject({})]),
  }),
  sessions: route({
    method: 'GET',
    path: '/v1/canvas/:canvas_id/sessions',
    auth: 'login',
    query: z.object({
      page: pageNumber,
      page_size: pageNumber,
      keywords: z.string().optional(),
      from_date: z.string().optional(),
      to_date: z.string().optional(),
      orderby: z.string().optional(),
      desc: z.string().optional(),
      user_id: z.string().optional(),
      /** `"false"` leaves out each session's DSL. */
      dsl: z.string().optional(),
    }),
    data: z.strictObject({ total: z.number(), sessions: z.array(canvasSessionSchema) }),
  }),
  newSession: route({
    method: 'PUT',
    path: '/v1/canvas/:canvas_id/sessions',
    auth: 'login',
    body: z.object({ name: z.string().optional() }),
    data: canvasSessionSchema,
  }),
  getSession: route({
    method: 'GET',
    path: '/v1/canvas/:canvas_id/sessions/:session_id',
    auth: 'login',
    data: canvasSessionSchema,
  }),
  rmSession: route({
    method: 'DELETE',
    path: '/v1/canvas/:canvas_id/sessions/:session_id',
    auth: 'login',
    data: done,
  }),
  prompts: route({
    method: 'GET',
    path: '/v1/canvas/prompts',
    auth: 'login',
    data: z.strictObject({
      task_analysis: z.string(),
      plan_generation: z.string(),
      reflection: z.string(),
      citation_guidelines: z.string(),
    }),
  }),
};

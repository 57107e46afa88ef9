/**
 * Shapes several areas share: time fields (API.md §1.8), parser_config (§19.6), chunk positions,
 * API-key rows (§10, §11), and the "any JSON" shape for genuinely free-form values.
 */
import { z } from 'zod';
import { GRAPH_METHODS } from './enums.js';

/** Integer epoch milliseconds. */
export const epochMs = z.number();
/** RFC 1123 datetime, e.g. "Mon, 28 Apr 2025 18:40:41 GMT". */
export const httpDate = z.string();

/** `create_time`, `create_date`, `update_time`, `update_date` of a presented row. */
export const timeFields = {
  create_time: epochMs,
  create_date: httpDate,
  update_time: epochMs,
  update_date: httpDate,
};

/**
 * Any JSON value. Used only where the contract lets the client store what it likes (document
 * metadata values, a KB's extra parser_config keys, stored chat messages' extra keys).
 */
export const jsonValue = z.json();
export type JsonValue = z.infer<typeof jsonValue>;
/** A JSON object with free-form values. */
export const jsonObject = z.record(z.string(), jsonValue);

/** `[page, x0, x1, top, bottom]` of a chunk on a PDF page (pages 1-based, points). */
export const chunkPositionSchema = z.tuple([z.number(), z.number(), z.number(), z.number(), z.number()]);
export type ChunkPosition = z.infer<typeof chunkPositionSchema>;

export const raptorConfigSchema = z.object({
  use_raptor: z.boolean().optional(),
  prompt: z.string().nullish(),
  max_token: z.number().nullish(),
  threshold: z.number().nullish(),
  max_cluster: z.number().nullish(),
  random_seed: z.number().nullish(),
});
export type RaptorConfig = z.infer<typeof raptorConfigSchema>;

export const graphragConfigSchema = z.object({
  use_graphrag: z.boolean().optional(),
  entity_types: z.array(z.string()).optional(),
  method: z.enum(GRAPH_METHODS).optional(),
  resolution: z.boolean().optional(),
  community: z.boolean().optional(),
});
export type GraphragConfig = z.infer<typeof graphragConfigSchema>;

/** 1-based inclusive page range; the server also accepts `{from, to}`. */
export const pageRangeSchema = z.union([
  z.tuple([z.number(), z.number()]),
  z.object({ from: z.number(), to: z.number() }),
]);

/**
 * A stored parser_config (API.md §19.6): the keys below as the server checks them (a `null` number
 * means "not set"). Not strict: any other key the client sent is kept as given (API.md §5 create).
 */
export const parserConfigSchema = z.object({
  layout_recognize: z.string().nullish(),
  chunk_token_num: z.number().nullish(),
  delimiter: z.string().nullish(),
  children_delimiter: z.string().nullish(),
  auto_keywords: z.number().nullish(),
  auto_questions: z.number().nullish(),
  html4excel: z.boolean().optional(),
  topn_tags: z.number().nullish(),
  tag_kb_ids: z.array(z.string()).optional(),
  task_page_size: z.number().nullish(),
  table_context_size: z.number().nullish(),
  image_context_size: z.number().nullish(),
  overlapped_percent: z.number().nullish(),
  filename_embd_weight: z.number().nullish(),
  pages: z.array(pageRangeSchema).nullish(),
  entity_types: z.array(z.string()).optional(),
  raptor: raptorConfigSchema.nullish(),
  graphrag: graphragConfigSchema.nullish(),
  /** The tenant's chat model at KB creation (used by keyword/question generation). */
  llm_id: z.string().optional(),
});
export type ParserConfig = z.infer<typeof parserConfigSchema>;

/** An API key row (API.md §10, §11): the key in full for its owner; `beta` for share pages. */
export const apiTokenSchema = z.strictObject({
  tenant_id: z.string(),
  token: z.string(),
  dialog_id: z.string().nullable(),
  source: z.string().nullable(),
  beta: z.string().nullable(),
  create_time: epochMs,
  create_date: httpDate,
  update_time: epochMs.nullable(),
  update_date: httpDate.nullable(),
});
export type ApiTokenRow = z.infer<typeof apiTokenSchema>;

/** `true`: the answer of most write routes. */
export const done = z.literal(true);

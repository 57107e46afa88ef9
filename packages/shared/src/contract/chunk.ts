/** `/v1/chunk` — a document's chunks and retrieval testing (API.md §7, §19). */
import { z } from 'zod';
import { chunkPositionSchema, done, jsonObject } from './common.js';
import { documentSchema } from './document.js';
import { route, routeChecked } from './route.js';

/** Chunk `available_int`: 1 enabled, 0 disabled. */
const availabilityValue = z.union([z.literal(0), z.literal(1)]);

/** Tag → weight (`tag_feas`). */
const tagFeatures = z.record(z.string(), z.number());

/** A `chunk/list` row. */
export const chunkRowSchema = z.strictObject({
  chunk_id: z.string(),
  /** With `<em>…</em>` highlights when the list was searched by keywords. */
  content_with_weight: z.string(),
  doc_id: z.string(),
  docnm_kwd: z.string(),
  important_kwd: z.array(z.string()),
  question_kwd: z.array(z.string()),
  /** "" or `<bucket>-<name>`, served by `/v1/document/image/…`. */
  image_id: z.string(),
  available_int: availabilityValue,
  positions: z.array(chunkPositionSchema),
  doc_type_kwd: z.string().nullable(),
  tag_kwd: z.array(z.string()),
  tag_feas: tagFeatures,
});
export type ChunkRow = z.infer<typeof chunkRowSchema>;

export const chunkListSchema = z.strictObject({
  total: z.number(),
  chunks: z.array(chunkRowSchema),
  doc: documentSchema,
});
export type ChunkListAnswer = z.infer<typeof chunkListSchema>;

/**
 * `chunk/get`: the stored chunk without vectors and token fields; absent keys omitted. Not strict:
 * chunk methods store their own typed fields too (table columns, resume fields, graph records).
 */
export const storedChunkSchema = z.object({
  id: z.string(),
  doc_id: z.string(),
  kb_id: z.string(),
  docnm_kwd: z.string(),
  content_with_weight: z.string(),
  important_kwd: z.array(z.string()),
  question_kwd: z.array(z.string()),
  tag_kwd: z.array(z.string()),
  tag_feas: tagFeatures,
  img_id: z.string(),
  position_int: z.array(chunkPositionSchema),
  page_num_int: z.array(z.number()),
  top_int: z.array(z.number()),
  available_int: availabilityValue,
  /** "YYYY-MM-DD HH:MM:SS". */
  create_time: z.string(),
  create_timestamp_flt: z.number(),
  doc_type_kwd: z.string().optional(),
  mom_id: z.string().optional(),
  pagerank_fea: z.number().optional(),
});
export type StoredChunk = z.infer<typeof storedChunkSchema>;

/** A retrieval_test hit. Similarities are 0..1 (plus rank features when tags or page rank apply). */
export const retrievalHitSchema = z.strictObject({
  chunk_id: z.string(),
  content_ltks: z.string(),
  content_with_weight: z.string(),
  doc_id: z.string(),
  docnm_kwd: z.string(),
  kb_id: z.string(),
  important_kwd: z.array(z.string()),
  question_kwd: z.array(z.string()),
  image_id: z.string(),
  similarity: z.number(),
  vector_similarity: z.number(),
  term_similarity: z.number(),
  /** Engine text relevance normalized to the best candidate (0..1); an extra of ours. */
  text_similarity: z.number(),
  positions: z.array(chunkPositionSchema),
  doc_type_kwd: z.string().nullable(),
  mom_id: z.string().nullable(),
  /** Content with `<em>` marks on the question's keywords (unless `highlight: false`). */
  highlight: z.string().optional(),
});
export type RetrievalHit = z.infer<typeof retrievalHitSchema>;

export const docAggSchema = z.strictObject({ doc_name: z.string(), doc_id: z.string(), count: z.number() });

export const retrievalAnswerSchema = z.strictObject({
  total: z.number(),
  chunks: z.array(retrievalHitSchema),
  doc_aggs: z.array(docAggSchema),
  /** Tag weights inferred for the question, or null. */
  labels: tagFeatures.nullable(),
  /** True when no embedding model could be used: candidates and scores come from the text alone. */
  keyword_only: z.boolean(),
  /** A readable sentence explaining keyword-only retrieval, else null. */
  notice: z.string().nullable(),
});
export type RetrievalAnswer = z.infer<typeof retrievalAnswerSchema>;

/** A mind-map node `{id, children[]}` (API.md §19.10). */
export interface MindMapNode {
  id: string;
  children?: MindMapNode[];
}
export const mindMapNodeSchema: z.ZodType<MindMapNode> = z.lazy(() =>
  z.strictObject({ id: z.string(), children: z.array(mindMapNodeSchema).optional() }),
);

const graphNodeSchema = z.object({
  id: z.string(),
  entity_name: z.string().optional(),
  entity_type: z.string().optional(),
  description: z.string().optional(),
  /** Chunk ids the entity was extracted from. */
  source_id: z.array(z.string()).optional(),
  pagerank: z.number().optional(),
  /** Leiden community index, when communities were computed. */
  community: z.number().optional(),
  doc_ids: z.array(z.string()).optional(),
});
export type GraphNodeData = z.infer<typeof graphNodeSchema>;
const graphEdgeSchema = z.object({
  source: z.string(),
  target: z.string(),
  weight: z.number().optional(),
  description: z.string().optional(),
  keywords: z.array(z.string()).optional(),
  source_id: z.array(z.string()).optional(),
});
export type GraphEdgeData = z.infer<typeof graphEdgeSchema>;

/** `{graph:{nodes, edges}, mind_map}`; both `{}` until graph extraction has run. */
export const knowledgeGraphSchema = z.strictObject({
  graph: z.strictObject({
    nodes: z.array(graphNodeSchema).optional(),
    edges: z.array(graphEdgeSchema).optional(),
  }),
  mind_map: z.union([mindMapNodeSchema, z.strictObject({})]),
});

/** 0/1 (also "0"/"1" and booleans); anything else → 100 "`available_int` must be 0 or 1." (route). */
type Availability = 0 | 1;

/**
 * Keyword lists answer 102 "`<name>` is required to be a list" (create) / "should be a list" (set)
 * and tag features their own 100 messages (API.md §7), so the route checks them after validate().
 */
const editFields = {
  important_kwd: routeChecked<string[]>().optional(),
  question_kwd: routeChecked<string[]>().optional(),
  tag_kwd: routeChecked<string[]>().optional(),
  tag_feas: routeChecked<Record<string, number>>().optional(),
};

export const chunkContract = {
  list: route({
    method: 'POST',
    path: '/v1/chunk/list',
    auth: 'login',
    body: z.object({
      doc_id: z.string(),
      /** Positive integers (numeric strings accepted); the route answers "`page` must be …" itself. */
      page: routeChecked<number>().optional(),
      size: routeChecked<number>().optional(),
      keywords: z.string().nullable().optional(),
      /** Filter: only enabled (1) or disabled (0) chunks. */
      available_int: routeChecked<Availability>().optional(),
    }),
    data: chunkListSchema,
  }),
  get: route({
    method: 'GET',
    path: '/v1/chunk/get',
    auth: 'login',
    query: z.object({ chunk_id: z.string() }),
    data: storedChunkSchema,
  }),
  create: route({
    method: 'POST',
    path: '/v1/chunk/create',
    auth: 'login',
    body: z.object({ doc_id: z.string(), content_with_weight: z.string(), ...editFields }),
    data: z.strictObject({ chunk_id: z.string() }),
  }),
  set: route({
    method: 'POST',
    path: '/v1/chunk/set',
    auth: 'login',
    body: z.object({
      doc_id: z.string(),
      chunk_id: z.string(),
      content_with_weight: z.string(),
      ...editFields,
      available_int: routeChecked<Availability>().optional(),
      /** A new chunk image: bare base64 or a data URL, with the `img_id` it replaces. */
      image_base64: z.string().nullable().optional(),
      img_id: z.string().nullable().optional(),
    }),
    data: done,
  }),
  switch: route({
    method: 'POST',
    path: '/v1/chunk/switch',
    auth: 'login',
    body: z.object({
      chunk_ids: z.array(z.string()),
      available_int: routeChecked<Availability>({ required: true }),
      doc_id: z.string(),
    }),
    data: done,
  }),
  rm: route({
    method: 'POST',
    path: '/v1/chunk/rm',
    auth: 'login',
    body: z.object({ chunk_ids: z.array(z.string()), doc_id: z.string() }),
    data: done,
  }),
  retrievalTest: route({
    method: 'POST',
    path: '/v1/chunk/retrieval_test',
    auth: 'login',
    /**
     * `kb_id`, `question` and the numbers are checked by the retrieval-parameter table with the
     * messages of API.md §7 (102 "Please specify dataset firstly.", 100 "`top_k` must be greater than 0."…).
     */
    body: z.object({
      kb_id: routeChecked<string | string[]>({ required: true }),
      question: routeChecked<string>({ required: true }),
      page: routeChecked<number>().optional(),
      size: routeChecked<number>().optional(),
      doc_ids: z.array(z.string()).nullable().optional(),
      similarity_threshold: routeChecked<number>().optional(),
      vector_similarity_weight: routeChecked<number>().optional(),
      top_k: routeChecked<number>().optional(),
      rerank_id: z.string().nullable().optional(),
      keyword: z.boolean().nullable().optional(),
      highlight: z.boolean().nullable().optional(),
      cross_languages: z.array(z.string()).nullable().optional(),
      use_kg: z.boolean().nullable().optional(),
      /** A metadata filter over the documents (`MetaDataFilter`: method, manual conditions, logic). */
      meta_data_filter: jsonObject.nullable().optional(),
      search_id: z.string().nullable().optional(),
    }),
    data: retrievalAnswerSchema,
  }),
  knowledgeGraph: route({
    method: 'GET',
    path: '/v1/chunk/knowledge_graph',
    auth: 'login',
    query: z.object({ doc_id: z.string() }),
    data: knowledgeGraphSchema,
  }),
};

/** `/v1/document` (API.md §6). */
import { z } from 'zod';
import { done, jsonObject, jsonValue, parserConfigSchema, timeFields, type ParserConfig } from './common.js';
import {
  documentTypeSchema,
  PARSER_IDS,
  runStatusSchema,
  statusSchema,
  type DocRun,
  type DocumentType,
} from './enums.js';
import { listPaging } from './paging.js';
import { route, routeChecked, typedAs } from './route.js';

/** A metadata value (API.md §6 set_meta): a string or number, or a list of those. */
const metaScalar = z.union([z.string(), z.number()]);
export const metaFieldsSchema = z.record(z.string(), z.union([metaScalar, z.array(metaScalar)]));

/** The document object of API.md §6. */
const documentFields = {
  id: z.string(),
  kb_id: z.string(),
  name: z.string(),
  type: documentTypeSchema,
  suffix: z.string(),
  size: z.number(),
  location: z.string(),
  /** `/v1/document/image/<kb_id>-<name>`, an inline data URL, or null. */
  thumbnail: z.string().nullable(),
  parser_id: z.enum(PARSER_IDS),
  pipeline_id: z.string().nullable(),
  parser_config: parserConfigSchema,
  source_type: z.string(),
  created_by: z.string(),
  token_num: z.number(),
  chunk_num: z.number(),
  /** 0..1, -1 on failure. */
  progress: z.number(),
  progress_msg: z.string(),
  process_begin_at: z.string().nullable(),
  /** Seconds. */
  process_duration: z.number(),
  run: runStatusSchema,
  /** The document's enable switch, mirrored to its chunks' `available_int`. */
  status: statusSchema,
  meta_fields: metaFieldsSchema,
  ...timeFields,
};
export const documentSchema = z.strictObject(documentFields);
export type DocumentInfo = z.infer<typeof documentSchema>;

/** A `document/list` entry: the document plus its pipeline's name and the creator's nickname. */
export const listedDocumentSchema = z.strictObject({
  ...documentFields,
  pipeline_name: z.string().nullable(),
  nickname: z.string().nullable(),
});
export type ListedDocument = z.infer<typeof listedDocumentSchema>;

export const documentListSchema = z.strictObject({ total: z.number(), docs: z.array(listedDocumentSchema) });
export type DocumentListAnswer = z.infer<typeof documentListSchema>;

/** `metadata_condition` of the list filters (API.md §6). */
export interface MetadataCondition {
  logic: 'and' | 'or';
  /** `value` is compared as the operator says; its type is the metadata value's. */
  conditions: Array<{ name: string; comparison_operator: string; value: z.infer<typeof jsonValue> }>;
}

/**
 * The list filters (body of `list`, also `filter`). Values outside the allowed sets and non-object
 * metadata filters answer 102 with the route's own messages, so the route checks them.
 */
const listFilters = {
  run_status: typedAs<DocRun[]>()(z.array(z.union([z.string(), z.number()]))).optional(),
  types: typedAs<DocumentType[]>()(z.array(z.string())).optional(),
  suffix: z.array(z.string()).optional(),
  metadata_condition: routeChecked<MetadataCondition>().optional(),
  metadata:
    routeChecked<Record<string, z.infer<typeof metaScalar> | Array<z.infer<typeof metaScalar>>>>().optional(),
  return_empty_metadata: z.boolean().optional(),
};

/** Absent or empty → 101 'Lack of "KB ID"', checked by the route before anything else. */
const listedKbId = routeChecked<string>();

const parserConfigInput = typedAs<ParserConfig>()(jsonObject);

const countsSchema = z.record(z.string(), z.number());

/** An attachment stored by `document/upload_info` (API.md §6), read back by `document/download`. */
export const attachmentSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  size: z.number(),
  extension: z.string(),
  mime_type: z.string(),
  created_by: z.string(),
  created_at: z.number(),
  preview_url: z.string().nullable(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

export const documentContract = {
  upload: route({
    method: 'POST',
    path: '/v1/document/upload',
    auth: 'login',
    form: { fields: z.object({ kb_id: z.string() }), file: 'file' },
    data: z.array(documentSchema),
  }),
  webCrawl: route({
    method: 'POST',
    path: '/v1/document/web_crawl',
    auth: 'login',
    form: { fields: z.object({ kb_id: z.string(), name: z.string(), url: z.string() }) },
    data: done,
  }),
  /** Plain text of the uploaded files (joined by a blank line) or of the page at `url`. */
  parse: route({
    method: 'POST',
    path: '/v1/document/parse',
    auth: 'login',
    form: { fields: z.object({ url: z.string().optional() }), file: 'file' },
    data: z.string(),
  }),
  /** Files of a conversation: stored in its assistant's first KB and parsed before the answer (ids). */
  uploadAndParse: route({
    method: 'POST',
    path: '/v1/document/upload_and_parse',
    auth: 'login',
    form: { fields: z.object({ conversation_id: z.string() }), file: 'file' },
    data: z.array(z.string()),
  }),
  create: route({
    method: 'POST',
    path: '/v1/document/create',
    auth: 'login',
    body: z.object({ name: z.string(), kb_id: z.string() }),
    data: documentSchema,
  }),
  list: route({
    method: 'POST',
    path: '/v1/document/list',
    auth: 'login',
    query: z.object({
      kb_id: listedKbId,
      ...listPaging,
      /** Epoch ms; 0 or absent = open. */
      create_time_from: routeChecked<number | string>().optional(),
      create_time_to: routeChecked<number | string>().optional(),
    }),
    body: z.object(listFilters),
    data: documentListSchema,
  }),
  filter: route({
    method: 'POST',
    path: '/v1/document/filter',
    auth: 'login',
    body: z.object({ kb_id: listedKbId, keywords: routeChecked<string>().optional(), ...listFilters }),
    data: z.strictObject({
      total: z.number(),
      filter: z.strictObject({
        run_status: countsSchema,
        suffix: countsSchema,
        metadata: z.record(z.string(), countsSchema),
      }),
    }),
  }),
  infos: route({
    method: 'POST',
    path: '/v1/document/infos',
    auth: 'login',
    body: z.object({ doc_ids: z.array(z.string()) }),
    data: z.array(documentSchema),
  }),
  thumbnails: route({
    method: 'GET',
    path: '/v1/document/thumbnails',
    auth: 'public',
    /** Repeated or comma-separated; none → 101 'Lack of "Document ID"' (checked by the route). */
    query: z.object({ doc_ids: routeChecked<string | string[]>().optional() }),
    data: z.record(z.string(), z.string().nullable()),
  }),
  changeStatus: route({
    method: 'POST',
    path: '/v1/document/change_status',
    auth: 'login',
    /** Absent, or not "0"/"1" (numbers accepted) → 101 '"Status" must be either 0 or 1!' (checked by the service). */
    body: z.object({ doc_ids: z.array(z.string()), status: routeChecked<'0' | '1' | 0 | 1>() }),
    /** Per id; a failed id (code 500 "Partial failure") carries `{error}` instead. */
    data: z.record(
      z.string(),
      z.union([z.strictObject({ status: z.string() }), z.strictObject({ error: z.string() })]),
    ),
  }),
  rm: route({
    method: 'POST',
    path: '/v1/document/rm',
    auth: 'login',
    body: z.object({ doc_id: z.union([z.string(), z.array(z.string())]) }),
    data: done,
  }),
  run: route({
    method: 'POST',
    path: '/v1/document/run',
    auth: 'login',
    body: z.object({
      doc_ids: z.array(z.string()),
      /** "1" parse, "2" cancel; anything else → 101 "required argument values: run=<v>" (service). */
      run: typedAs<'1' | '2' | 1 | 2>()(z.union([z.string(), z.number()])),
      delete: z.boolean().optional(),
      apply_kb: z.boolean().optional(),
    }),
    data: done,
  }),
  rename: route({
    method: 'POST',
    path: '/v1/document/rename',
    auth: 'login',
    body: z.object({ doc_id: z.string(), name: z.string() }),
    data: done,
  }),
  changeParser: route({
    method: 'POST',
    path: '/v1/document/change_parser',
    auth: 'login',
    body: z.object({
      doc_id: z.string(),
      parser_id: z.string().optional(),
      parser_config: parserConfigInput.optional(),
      pipeline_id: z.string().nullable().optional(),
    }),
    data: done,
  }),
  setMeta: route({
    method: 'POST',
    path: '/v1/document/set_meta',
    auth: 'login',
    /** `meta`: the JSON text of a flat object; absence, syntax and values answer 101 messages (service). */
    body: z.object({ doc_id: z.string(), meta: routeChecked<string>() }),
    data: done,
  }),
  file: route({
    method: 'GET',
    path: '/v1/document/get/:doc_id',
    auth: 'login',
    kind: 'binary',
    contentType: 'from the file extension (API.md §1.1)',
  }),
  /** Lectern addition: a DOCX document as a sanitized HTML page for the preview (as `file.preview`). */
  preview: route({
    method: 'GET',
    path: '/v1/document/preview/:doc_id',
    auth: 'login',
    kind: 'binary',
    contentType: 'sanitized HTML page, labelled text/plain (user content)',
  }),
  image: route({
    method: 'GET',
    path: '/v1/document/image/:image_id',
    auth: 'public',
    kind: 'binary',
    contentType: 'image/JPEG',
  }),
  updateMetadataSetting: route({
    method: 'POST',
    path: '/v1/document/update_metadata_setting',
    auth: 'login',
    /** `metadata`: the fields to extract, free-form, stored in the document's `parser_config.metadata`. */
    body: z.object({ doc_id: z.string(), metadata: jsonValue }),
    data: documentSchema,
  }),
  metadataSummary: route({
    method: 'POST',
    path: '/v1/document/metadata/summary',
    auth: 'login',
    /** `kb_id` absent or empty → 101 'Lack of "KB ID"' (route). */
    body: z.object({ kb_id: routeChecked<string>(), doc_ids: z.array(z.string()).optional() }),
    /** Per metadata key, `[[value, count], …]` most frequent first. */
    data: z.strictObject({
      summary: z.record(z.string(), z.array(z.tuple([z.string(), z.number()]))),
    }),
  }),
  metadataUpdate: route({
    method: 'POST',
    path: '/v1/document/metadata/update',
    auth: 'login',
    /** `updates`/`deletes` are checked by the route with API.md §6's 101 messages. */
    body: z.object({
      kb_id: routeChecked<string>(),
      doc_ids: z.array(z.string()),
      updates:
        routeChecked<Array<{ key: string; value: string | number | Array<string | number> }>>().optional(),
      deletes: routeChecked<Array<{ key: string }>>().optional(),
    }),
    data: z.strictObject({ updated: z.number(), matched_docs: z.number() }),
  }),
  uploadInfo: route({
    method: 'POST',
    path: '/v1/document/upload_info',
    auth: 'login',
    form: { fields: z.object({ url: z.string().optional() }), file: 'file' },
    query: z.object({ url: z.string().optional() }),
    data: attachmentSchema,
  }),
  downloadAttachment: route({
    method: 'GET',
    path: '/v1/document/download/:attachment_id',
    auth: 'login',
    query: z.object({ ext: z.string().optional() }),
    kind: 'binary',
    contentType: 'from `ext` (markdown → text/markdown), API.md §1.1',
  }),
};

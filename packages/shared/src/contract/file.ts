/** `/v1/file`, `/v1/file2document` — the file manager (API.md §12). */
import { z } from 'zod';
import { done, epochMs, timeFields } from './common.js';
import { runStatusSchema } from './enums.js';
import { listPaging } from './paging.js';
import { route, routeChecked } from './route.js';

/** `type` of a file-manager row (API.md §12.3). */
export const FILE_TYPES = ['pdf', 'doc', 'visual', 'aural', 'virtual', 'folder', 'other'] as const;
export const fileTypeSchema = z.enum(FILE_TYPES);

/** A file-manager row as every §12 route shows it. */
const fileRowFields = {
  id: z.string(),
  parent_id: z.string(),
  tenant_id: z.string(),
  created_by: z.string(),
  name: z.string(),
  location: z.string(),
  size: z.number(),
  type: fileTypeSchema,
  /** `""` for the user's own entries, `"knowledgebase"` for the read-only `.knowledgebase` mirror. */
  source_type: z.string(),
  ...timeFields,
};
export const fileRowSchema = z.strictObject(fileRowFields);
export type FileRow = z.infer<typeof fileRowSchema>;

/** A knowledge base a file is linked to. */
export const kbInfoSchema = z.strictObject({
  kb_id: z.string(),
  kb_name: z.string(),
  document_id: z.string(),
});

/** A `file/list` entry: files add their KB links; folders their recursive size and child-folder flag. */
export const fileListItemSchema = z.strictObject({
  ...fileRowFields,
  kbs_info: z.array(kbInfoSchema),
  has_child_folder: z.boolean().optional(),
});
export type FileListItem = z.infer<typeof fileListItemSchema>;

export const fileListSchema = z.strictObject({
  total: z.number(),
  files: z.array(fileListItemSchema),
  parent_folder: fileRowSchema,
});

/** A `file2document` link created by `convert`. */
export const fileLinkSchema = z.strictObject({
  id: z.string(),
  file_id: z.string(),
  document_id: z.string(),
  kb_id: z.string(),
  create_time: epochMs,
  update_time: epochMs,
});

/** Why one object of an S3 import was not stored. */
export const s3SkippedSchema = z.strictObject({ key: z.string(), reason: z.string() });

/** What `file/import_s3` stored (relative paths below the prefix become folders) and what it skipped. */
export const s3ImportSchema = z.strictObject({
  files: z.array(fileRowSchema),
  skipped: z.array(s3SkippedSchema),
});
export type S3ImportAnswer = z.infer<typeof s3ImportSchema>;

/**
 * The events of a streamed `file/import_s3` (`stream: true`), each the `data` of a code-0 envelope:
 * `listed` once the objects under the prefix are known, `object` after each one (stored or skipped with
 * its reason; `done` counts the objects handled so far), `finished` with what the JSON answer holds;
 * then the `data: true` terminator. Closing the stream cancels the import after the current object
 * (the objects stored so far stay).
 */
export const s3ImportEventSchema = z.discriminatedUnion('event', [
  z.strictObject({ event: z.literal('listed'), total: z.number() }),
  z.strictObject({
    event: z.literal('object'),
    key: z.string(),
    status: z.enum(['imported', 'skipped']),
    /** Why a skipped object was not stored. */
    reason: z.string().optional(),
    /** The stored file of an imported object. */
    file: fileRowSchema.optional(),
    done: z.number(),
    total: z.number(),
  }),
  z.strictObject({ event: z.literal('finished'), ...s3ImportSchema.shape }),
]);
export type S3ImportEvent = z.infer<typeof s3ImportEventSchema>;

/** A file linked to a knowledge base, with the document the link created (`file/kb_files`). */
export const kbLinkedFileSchema = z.strictObject({
  ...fileRowFields,
  document_id: z.string(),
  run: runStatusSchema,
  progress: z.number(),
});
export type KbLinkedFile = z.infer<typeof kbLinkedFileSchema>;

/** Ids lists whose emptiness and item types the route checks with API.md's messages. */
const idList = routeChecked<string[]>({ required: true });

export const fileContract = {
  list: route({
    method: 'GET',
    path: '/v1/file/list',
    auth: 'login',
    query: z.object({ parent_id: z.string().optional(), ...listPaging }),
    data: fileListSchema,
  }),
  upload: route({
    method: 'POST',
    path: '/v1/file/upload',
    auth: 'login',
    /** A file's name may carry a relative path (`a/b/c.txt`): the folders are created under the parent. */
    form: { fields: z.object({ parent_id: z.string().optional() }), file: 'file' },
    data: z.array(fileRowSchema),
  }),
  create: route({
    method: 'POST',
    path: '/v1/file/create',
    auth: 'login',
    body: z.object({
      name: routeChecked<string>({ required: true }),
      parent_id: z.string().optional(),
      type: z.string().optional(),
    }),
    data: fileRowSchema,
  }),
  rm: route({
    method: 'POST',
    path: '/v1/file/rm',
    auth: 'login',
    body: z.object({ file_ids: idList }),
    data: done,
  }),
  rename: route({
    method: 'POST',
    path: '/v1/file/rename',
    auth: 'login',
    body: z.object({ file_id: z.string(), name: routeChecked<string>({ required: true }) }),
    data: done,
  }),
  get: route({
    method: 'GET',
    path: '/v1/file/get/:file_id',
    auth: 'login',
    kind: 'binary',
    contentType: 'from the file extension; active types (HTML, SVG, XML, JS) as attachments',
  }),
  mv: route({
    method: 'POST',
    path: '/v1/file/mv',
    auth: 'login',
    body: z.object({ src_file_ids: idList, dest_file_id: z.string() }),
    data: done,
  }),
  allParentFolder: route({
    method: 'GET',
    path: '/v1/file/all_parent_folder',
    auth: 'login',
    query: z.object({ file_id: z.string() }),
    data: z.strictObject({ parent_folders: z.array(fileRowSchema) }),
  }),
  rootFolder: route({
    method: 'GET',
    path: '/v1/file/root_folder',
    auth: 'login',
    data: z.strictObject({ root_folder: fileRowSchema }),
  }),
  parentFolder: route({
    method: 'GET',
    path: '/v1/file/parent_folder',
    auth: 'login',
    query: z.object({ file_id: z.string() }),
    data: z.strictObject({ parent_folder: fileRowSchema }),
  }),
  /**
   * Lectern addition: copies the objects under `prefix` of an S3-compatible bucket into a folder
   * (the key below the prefix is the relative path). The endpoint goes through the outbound guard.
   */
  importS3: route({
    method: 'POST',
    path: '/v1/file/import_s3',
    auth: 'login',
    body: z.object({
      endpoint: z.string().min(1).max(2048),
      bucket: z.string().min(1).max(255),
      prefix: z.string().max(1024).optional(),
      access_key: z.string().min(1).max(256),
      secret_key: z.string().min(1).max(256),
      region: z.string().max(64).optional(),
      parent_id: z.string().optional(),
      /** `true`: answer with a stream of progress events (s3ImportEventSchema); default one JSON answer. */
      stream: z.boolean().optional(),
    }),
    kind: 'sse',
    event: z.union([s3ImportEventSchema, z.literal(true)]), // `true`: the terminator's data
    data: s3ImportSchema,
  }),
  /**
   * Lectern addition: a DOCX file as a sanitized, self-contained HTML page for the preview (sent as
   * user content: `text/plain` attachment, nosniff, sandbox CSP; the client shows it in a sandboxed iframe).
   */
  preview: route({
    method: 'GET',
    path: '/v1/file/preview/:file_id',
    auth: 'login',
    kind: 'binary',
    contentType: 'sanitized HTML page, labelled text/plain (user content)',
  }),
  /** Lectern addition: the files linked to a knowledge base the caller may read (its Files tab). */
  kbFiles: route({
    method: 'GET',
    path: '/v1/file/kb_files',
    auth: 'login',
    query: z.object({
      kb_id: z.string(),
      keywords: listPaging.keywords,
      page: listPaging.page,
      page_size: listPaging.page_size,
    }),
    data: z.strictObject({ total: z.number(), files: z.array(kbLinkedFileSchema) }),
  }),
  convert: route({
    method: 'POST',
    path: '/v1/file2document/convert',
    auth: 'login',
    body: z.object({ file_ids: idList, kb_ids: idList }),
    data: z.array(fileLinkSchema),
  }),
  unlink: route({
    method: 'POST',
    path: '/v1/file2document/rm',
    auth: 'login',
    body: z.object({ file_ids: routeChecked<string[]>() }),
    data: done,
  }),
};

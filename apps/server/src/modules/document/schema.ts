import { z } from 'zod';

export const docIdsBody = z.object({ doc_ids: z.array(z.string()) });

export const changeStatusBody = z.object({ doc_ids: z.array(z.string()), status: z.unknown() });

export const rmBody = z.object({ doc_id: z.union([z.string(), z.array(z.string())]) });

export const runBody = z.object({
  doc_ids: z.array(z.string()),
  run: z.union([z.string(), z.number()]),
  delete: z.boolean().optional(),
  apply_kb: z.boolean().optional(),
});

export const renameBody = z.object({ doc_id: z.string(), name: z.string() });

export const changeParserBody = z.object({
  doc_id: z.string(),
  parser_id: z.string().optional(),
  parser_config: z.record(z.string(), z.unknown()).optional(),
  pipeline_id: z.string().nullable().optional(),
});

export const createDocBody = z.object({ name: z.string(), kb_id: z.string() });

export const setMetaBody = z.object({ doc_id: z.string(), meta: z.unknown() });

export const listDocBody = z.object({
  run_status: z.array(z.union([z.string(), z.number()])).optional(),
  types: z.array(z.string()).optional(),
  suffix: z.array(z.string()).optional(),
  metadata_condition: z.unknown().optional(),
  metadata: z.unknown().optional(),
  return_empty_metadata: z.boolean().optional(),
});
export type ListDocBody = z.infer<typeof listDocBody>;

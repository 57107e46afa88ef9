import { z } from 'zod';

/** Present with any value (the name checks answer with their own messages); absent → 101. */
const presentValue = z.custom<unknown>((v) => v !== undefined);

/** Name checks answer with the contract's own messages, so `name` is only required here. */
export const createKbBody = z.object({
  name: presentValue,
  description: z.string().nullable().optional(),
  language: z.string().max(32).optional(),
  permission: z.enum(['me', 'team']).optional(),
  avatar: z.string().nullable().optional(),
  parser_id: z.string().min(1).max(32).optional(),
  parser_config: z.record(z.string(), z.unknown()).optional(),
  embd_id: z.string().max(128).optional(),
  pagerank: z.number().int().min(0).max(100).optional(),
});
export type CreateKbBody = z.infer<typeof createKbBody>;

export const updateKbBody = z.object({
  kb_id: z.string(),
  name: presentValue,
  description: z.string().nullable(),
  parser_id: z.string().min(1).max(32),
  avatar: z.string().nullable().optional(),
  language: z.string().max(32).optional(),
  permission: z.enum(['me', 'team']).optional(),
  embd_id: z.string().max(128).optional(),
  parser_config: z.record(z.string(), z.unknown()).optional(),
  pagerank: z.number().int().min(0).max(100).optional(),
  pipeline_id: z.string().nullable().optional(),
});
export type UpdateKbBody = z.infer<typeof updateKbBody>;

/** Fields a client may never set on update (API.md §5). */
export const KB_FORBIDDEN_FIELDS = [
  'id',
  'tenant_id',
  'created_by',
  'create_time',
  'update_time',
  'create_date',
  'update_date',
] as const;

export const kbIdBody = z.object({ kb_id: z.string() });

export const listKbBody = z.object({
  owner_ids: z.array(z.string()).optional(),
});

export const rmTagsBody = z.object({ tags: z.array(z.string()) });
export const renameTagBody = z.object({ from_tag: z.string(), to_tag: z.string().min(1) });

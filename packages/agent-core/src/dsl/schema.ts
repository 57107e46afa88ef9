/**
 * The saved agent DSL (AGENTS.md §2, API.md §13.1) as zod schemas. Every object is loose: keys this
 * package does not know are kept, so a DSL saved by RAGFlow v0.24's editor round-trips unchanged.
 * Missing top-level keys read as empty (§2.1 tolerance rules).
 */
import { z } from 'zod';

const record = z.record(z.string(), z.unknown());

export const componentObjSchema = z.looseObject({
  component_name: z.string().min(1, 'component_name is required'),
  params: z.preprocess((v) => v ?? {}, record),
});

export const componentEntrySchema = z.looseObject({
  obj: componentObjSchema,
  downstream: z.preprocess((v) => v ?? [], z.array(z.string())),
  upstream: z.preprocess((v) => v ?? [], z.array(z.string())),
  parent_id: z.string().nullish(),
});

export const graphNodeSchema = z.looseObject({
  id: z.string(),
  type: z.string().optional(),
  parentId: z.string().nullish(),
  position: z.looseObject({ x: z.number(), y: z.number() }).optional(),
  data: z
    .looseObject({
      label: z.string().optional(),
      name: z.string().optional(),
      form: record.nullish(),
    })
    .optional(),
});

export const graphEdgeSchema = z.looseObject({
  id: z.string().optional(),
  source: z.string(),
  target: z.string(),
  sourceHandle: z.string().nullish(),
  targetHandle: z.string().nullish(),
});

export const graphSchema = z.looseObject({
  nodes: z.preprocess((v) => v ?? [], z.array(graphNodeSchema)),
  edges: z.preprocess((v) => v ?? [], z.array(graphEdgeSchema)),
});

export const variableDefSchema = z.looseObject({
  name: z.string().optional(),
  type: z.string().optional(),
  value: z.unknown().optional(),
  description: z.string().nullish(),
});

/** One history turn: `[role, content]`; an assistant content is the outputs object of the run's last component. */
export const historyEntrySchema = z.tuple([z.string(), z.unknown()]).rest(z.unknown());

export const dslSchema = z.looseObject({
  components: z.preprocess((v) => v ?? {}, z.record(z.string(), componentEntrySchema)),
  graph: graphSchema.optional(),
  globals: record.optional(),
  variables: z.record(z.string(), variableDefSchema).nullish(),
  history: z.preprocess((v) => v ?? [], z.array(historyEntrySchema)),
  path: z.preprocess((v) => v ?? [], z.array(z.string())),
  retrieval: z.preprocess((v) => v ?? [], z.array(z.unknown())),
  memory: z.array(z.unknown()).nullish(),
  messages: z.array(z.unknown()).nullish(),
  task_id: z.string().nullish(),
});

export type ComponentEntry = z.infer<typeof componentEntrySchema>;
export type GraphNode = z.infer<typeof graphNodeSchema>;
export type GraphEdge = z.infer<typeof graphEdgeSchema>;
export type Graph = z.infer<typeof graphSchema>;
export type VariableDef = z.infer<typeof variableDefSchema>;
export type Dsl = z.infer<typeof dslSchema>;

/** A canvas template row (AGENTS.md §2.2): localized title/description and a DSL. */
export const templateSchema = z.looseObject({
  id: z.union([z.number(), z.string()]),
  title: z.record(z.string(), z.string()),
  description: z.record(z.string(), z.string()),
  canvas_type: z.string(),
  canvas_category: z.string().optional(),
  avatar: z.string().optional(),
  dsl: dslSchema,
});
export type CanvasTemplate = z.infer<typeof templateSchema>;

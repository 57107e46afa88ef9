/**
 * KB-level knowledge jobs and their results (API.md §5, §7, §19.10–§19.11): the knowledge graph and
 * mind map of a KB (a document's: `chunk/knowledge_graph` in chunk.ts), and the `run_*` / `trace_*` routes of the graph, RAPTOR and mind-map
 * jobs.
 */
import { z } from 'zod';
import { knowledgeGraphSchema } from './chunk.js';
import { done } from './common.js';
import { route, routeChecked } from './route.js';

/** A KB job's task row (API.md §18 task), or `{}` when the KB has none. */
export const kbTaskSchema = z.union([
  z.strictObject({
    id: z.string(),
    doc_id: z.string(),
    kb_id: z.string(),
    task_type: z.string(),
    progress: z.number(),
    progress_msg: z.string(),
    begin_at: z.string().nullable(),
    process_duration: z.number(),
    retry_count: z.number(),
    token_num: z.number(),
    create_time: z.number(),
    create_date: z.string(),
    update_time: z.number(),
    update_date: z.string(),
  }),
  z.strictObject({}),
]);
export type KbTaskData = z.output<typeof kbTaskSchema>;

/** Checked by the route: absent or empty → 102 'Lack of "KB ID"'. */
const kbIdBody = z.object({ kb_id: routeChecked<string>() });
const kbIdQuery = z.object({ kb_id: routeChecked<string>() });

export const graphContract = {
  knowledgeGraph: route({
    method: 'GET',
    path: '/v1/kb/:kb_id/knowledge_graph',
    auth: 'login',
    /** Lectern addition: `full=1` serves every node and edge (the web's graph tab), not the first 256/128. */
    query: z.object({ full: z.enum(['0', '1', 'true', 'false']).optional() }),
    data: knowledgeGraphSchema,
  }),
  deleteKnowledgeGraph: route({
    method: 'DELETE',
    path: '/v1/kb/:kb_id/knowledge_graph',
    auth: 'login',
    data: done,
  }),
  runGraphrag: route({
    method: 'POST',
    path: '/v1/kb/run_graphrag',
    auth: 'login',
    body: kbIdBody,
    data: z.strictObject({ graphrag_task_id: z.string() }),
  }),
  traceGraphrag: route({
    method: 'GET',
    path: '/v1/kb/trace_graphrag',
    auth: 'login',
    query: kbIdQuery,
    data: kbTaskSchema,
  }),
  runRaptor: route({
    method: 'POST',
    path: '/v1/kb/run_raptor',
    auth: 'login',
    body: kbIdBody,
    data: z.strictObject({ raptor_task_id: z.string() }),
  }),
  traceRaptor: route({
    method: 'GET',
    path: '/v1/kb/trace_raptor',
    auth: 'login',
    query: kbIdQuery,
    data: kbTaskSchema,
  }),
  runMindmap: route({
    method: 'POST',
    path: '/v1/kb/run_mindmap',
    auth: 'login',
    body: kbIdBody,
    data: z.strictObject({ mindmap_task_id: z.string() }),
  }),
  traceMindmap: route({
    method: 'GET',
    path: '/v1/kb/trace_mindmap',
    auth: 'login',
    query: kbIdQuery,
    data: kbTaskSchema,
  }),
};

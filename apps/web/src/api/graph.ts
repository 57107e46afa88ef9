import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, type KbTaskData } from '@lectern/shared';
import { unwrap } from './request';
import { callRoute } from './route-call';
import { kbKeys } from './kb';

/**
 * Hooks of a KB's knowledge graph and its jobs (API.md §5): the whole graph for the graph tab
 * (`full=1`), deleting it, and the graph / RAPTOR / mind-map jobs — start, trace, cancel.
 */

export type KbJobKind = 'graphrag' | 'raptor' | 'mindmap';
export const KB_JOB_KINDS: readonly KbJobKind[] = ['graphrag', 'raptor', 'mindmap'];

export const graphKeys = {
  graph: (kbId: string) => ['kb', 'graph', kbId] as const,
  trace: (kbId: string, kind: KbJobKind) => ['kb', 'trace', kind, kbId] as const,
};

export function useKbGraph(kbId: string) {
  return useQuery({
    queryKey: graphKeys.graph(kbId),
    queryFn: async () =>
      unwrap(
        await callRoute(contract.graph.knowledgeGraph, { params: { kb_id: kbId }, query: { full: '1' } }),
      ),
    staleTime: 30_000,
  });
}

export function useDeleteKbGraph(kbId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => callRoute(contract.graph.deleteKnowledgeGraph, { params: { kb_id: kbId } }),
    onSuccess: (result) => {
      if (result.code === 0) void client.invalidateQueries({ queryKey: graphKeys.graph(kbId) });
    },
  });
}

const RUN = {
  graphrag: contract.graph.runGraphrag,
  raptor: contract.graph.runRaptor,
  mindmap: contract.graph.runMindmap,
} as const;
const TRACE = {
  graphrag: contract.graph.traceGraphrag,
  raptor: contract.graph.traceRaptor,
  mindmap: contract.graph.traceMindmap,
} as const;

/** The job's task row (`{}` when none), polled every `pollMs` while `poll` says so. */
export function useKbJobTrace(
  kbId: string,
  kind: KbJobKind,
  poll: (task: KbTaskData | undefined) => number | false,
) {
  return useQuery({
    queryKey: graphKeys.trace(kbId, kind),
    queryFn: async () => unwrap(await callRoute(TRACE[kind], { query: { kb_id: kbId } })),
    refetchInterval: (query) => poll(query.state.data),
  });
}

export function useRunKbJob(kbId: string, kind: KbJobKind) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => callRoute(RUN[kind], { body: { kb_id: kbId } }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: graphKeys.trace(kbId, kind) });
      void client.invalidateQueries({ queryKey: kbKeys.detail(kbId) });
    },
  });
}

export function useCancelKbJob(kbId: string, kind: KbJobKind) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => callRoute(contract.kb.unbindTask, { query: { kb_id: kbId, pipeline_task_type: kind } }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: graphKeys.trace(kbId, kind) });
      void client.invalidateQueries({ queryKey: kbKeys.detail(kbId) });
    },
  });
}

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, type BodyInput, type ChunkEditBody, type RetrievalTestBody } from '@lectern/shared';
import { docKeys, fetchDocumentFile } from './document';
import { kbKeys } from './kb';
import { unwrap, type ApiResult } from './request';
import { callRoute } from './route-call';

/** Hooks of the chunk area (API.md §7): a document's chunks, editing them, retrieval testing. */

export type AvailabilityFilter = 'all' | 'enabled' | 'disabled';

export interface ChunkListParams {
  docId: string;
  page: number;
  size: number;
  keywords: string;
  availability: AvailabilityFilter;
}

export const chunkKeys = {
  all: ['chunk'] as const,
  doc: (docId: string) => ['chunk', 'list', docId] as const,
  list: (p: ChunkListParams) => ['chunk', 'list', p.docId, p] as const,
  one: (chunkId: string) => ['chunk', 'get', chunkId] as const,
  file: (docId: string) => ['chunk', 'file', docId] as const,
  rerankModels: ['llm', 'list', 'rerank'] as const,
  kbTags: (kbIds: string[]) => ['kb', 'tags', ...kbIds] as const,
};

/** The body of `chunk/list`: `available_int` only when filtering (API.md §7). */
export function chunkListBody(p: ChunkListParams): BodyInput<typeof contract.chunk.list> {
  return {
    doc_id: p.docId,
    page: p.page,
    size: p.size,
    ...(p.keywords.trim() ? { keywords: p.keywords.trim() } : {}),
    ...(p.availability === 'all' ? {} : { available_int: p.availability === 'enabled' ? 1 : 0 }),
  };
}

export function useChunkList(params: ChunkListParams) {
  return useQuery({
    queryKey: chunkKeys.list(params),
    queryFn: async () => unwrap(await callRoute(contract.chunk.list, { body: chunkListBody(params) })),
    placeholderData: keepPreviousData,
    enabled: Boolean(params.docId),
  });
}

/** One stored chunk (the editor reads the unhighlighted text from here). */
export function useChunk(chunkId: string | undefined) {
  return useQuery({
    queryKey: chunkKeys.one(chunkId ?? ''),
    queryFn: async () => unwrap(await callRoute(contract.chunk.get, { query: { chunk_id: chunkId ?? '' } })),
    enabled: Boolean(chunkId),
    staleTime: 0,
  });
}

/** After a change: the document's chunks, its counters in the documents table, the KB counters. */
function useChunkRefresh(docId: string, kbId: string) {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: chunkKeys.doc(docId) });
    void client.invalidateQueries({ queryKey: ['chunk', 'get'] });
    void client.invalidateQueries({ queryKey: docKeys.kb(kbId) });
    void client.invalidateQueries({ queryKey: kbKeys.detail(kbId) });
  };
}

export function useSaveChunk(docId: string, kbId: string) {
  const refresh = useChunkRefresh(docId, kbId);
  return useMutation({
    mutationFn: ({ chunk_id, ...body }: ChunkEditBody): Promise<ApiResult<unknown>> =>
      chunk_id
        ? callRoute(contract.chunk.set, { body: { ...body, chunk_id } })
        : callRoute(contract.chunk.create, { body }),
    onSettled: refresh,
  });
}

export function useSwitchChunks(docId: string, kbId: string) {
  const refresh = useChunkRefresh(docId, kbId);
  return useMutation({
    mutationFn: (input: { chunkIds: string[]; available: 0 | 1 }) =>
      callRoute(contract.chunk.switch, {
        body: { doc_id: docId, chunk_ids: input.chunkIds, available_int: input.available },
      }),
    onSettled: refresh,
  });
}

export function useRemoveChunks(docId: string, kbId: string) {
  const refresh = useChunkRefresh(docId, kbId);
  return useMutation({
    mutationFn: (chunkIds: string[]) =>
      callRoute(contract.chunk.rm, { body: { doc_id: docId, chunk_ids: chunkIds } }),
    onSettled: refresh,
  });
}

/** The document's original file (`GET /v1/document/get/<id>`), for the preview beside the chunks. */
export function useDocumentFile(docId: string, enabled: boolean) {
  return useQuery({
    queryKey: chunkKeys.file(docId),
    queryFn: async () => unwrap(await fetchDocumentFile(docId)),
    enabled: enabled && Boolean(docId),
    staleTime: 5 * 60_000,
  });
}

/** `[[tag, count]]` of the KBs' chunks: the choices of a chunk's tags (API.md §5 `kb/tags`). */
export function useKbTags(kbIds: string[]) {
  return useQuery({
    queryKey: chunkKeys.kbTags(kbIds),
    queryFn: async () =>
      unwrap(await callRoute(contract.kb.tagsOfKbs, { query: { kb_ids: kbIds.join(',') } })),
    enabled: kbIds.length > 0,
    staleTime: 30_000,
  });
}

export interface RerankChoice {
  value: string;
  label: string;
  available: boolean;
}

/** `GET /v1/llm/list?model_type=rerank` as select options (`<llm_name>@<factory>`). */
export function useRerankModels() {
  return useQuery({
    queryKey: chunkKeys.rerankModels,
    queryFn: async () => {
      const byFactory = unwrap(await callRoute(contract.llm.list, { query: { model_type: 'rerank' } }));
      const choices: RerankChoice[] = [];
      for (const [factory, models] of Object.entries(byFactory ?? {})) {
        for (const m of models) {
          if (m.model_type !== 'rerank') continue;
          choices.push({
            value: `${m.llm_name}@${factory}`,
            label: `${m.llm_name} (${factory})`,
            available: m.available !== false,
          });
        }
      }
      return choices;
    },
    staleTime: 60_000,
  });
}

/** One retrieval test; the caller keeps the answer (a mutation: every run is a new question). */
export function useRetrievalTest() {
  return useMutation({
    mutationFn: (body: RetrievalTestBody) => callRoute(contract.chunk.retrievalTest, { body }),
  });
}

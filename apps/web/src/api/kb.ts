import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import {
  contract,
  type BodyInput,
  type KbListAnswer,
  type KbUpdateBody,
  type QueryInput,
} from '@lectern/shared';
import { unwrap } from './request';
import { callRoute } from './route-call';

/** Hooks of the knowledge-base area (API.md §5), plus the embedding-model choices its settings need. */

export const KB_PAGE_SIZE = 30;

export const kbKeys = {
  all: ['kb'] as const,
  list: (keywords: string) => ['kb', 'list', keywords] as const,
  detail: (kbId: string) => ['kb', 'detail', kbId] as const,
  tagSets: ['kb', 'tag-sets'] as const,
  embeddingModels: ['llm', 'list', 'embedding'] as const,
};

/** `kb/list` takes its paging in the query string even though it is a POST (API.md §5). */
export function kbListQuery(params: {
  page?: number;
  pageSize?: number;
  keywords?: string;
  parserId?: string;
}): QueryInput<typeof contract.kb.list> {
  return {
    page: params.page,
    page_size: params.pageSize,
    keywords: params.keywords || undefined,
    parser_id: params.parserId,
  };
}

function listKbs(query: QueryInput<typeof contract.kb.list>) {
  return callRoute(contract.kb.list, { query, body: {} });
}

export async function fetchKbPage(page: number, keywords: string): Promise<KbListAnswer> {
  return unwrap(await listKbs(kbListQuery({ page, pageSize: KB_PAGE_SIZE, keywords })));
}

/** The page after `pages`, or undefined once every row matching has been loaded. */
export function nextKbPage(pages: KbListAnswer[]): number | undefined {
  const loaded = pages.reduce((n, p) => n + p.kbs.length, 0);
  const total = pages[pages.length - 1]?.total ?? 0;
  const lastEmpty = (pages[pages.length - 1]?.kbs.length ?? 0) === 0;
  return loaded < total && !lastEmpty ? pages.length + 1 : undefined;
}

/** Knowledge bases page by page for infinite scrolling. */
export function useKbInfiniteList(keywords: string) {
  return useInfiniteQuery({
    queryKey: kbKeys.list(keywords),
    queryFn: ({ pageParam }) => fetchKbPage(pageParam, keywords),
    initialPageParam: 1,
    getNextPageParam: (_last, pages) => nextKbPage(pages),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

export function useKbDetail(kbId: string | undefined) {
  return useQuery({
    queryKey: kbKeys.detail(kbId ?? ''),
    queryFn: async () => unwrap(await callRoute(contract.kb.detail, { query: { kb_id: kbId ?? '' } })),
    enabled: Boolean(kbId),
    staleTime: 5_000,
  });
}

/** Knowledge bases built with the `tag` method: the choices of a "tag sets" setting. */
export function useTagSets() {
  return useQuery({
    queryKey: kbKeys.tagSets,
    queryFn: async () => unwrap(await listKbs(kbListQuery({ parserId: 'tag' }))).kbs,
  });
}

export interface ModelChoice {
  value: string;
  label: string;
  factory: string;
  available: boolean;
}

/** `GET /v1/llm/list?model_type=embedding` as select options (`<llm_name>@<factory>`). */
export function useEmbeddingModels() {
  return useQuery({
    queryKey: kbKeys.embeddingModels,
    queryFn: async () => {
      const byFactory = unwrap(await callRoute(contract.llm.list, { query: { model_type: 'embedding' } }));
      const choices: ModelChoice[] = [];
      for (const [factory, models] of Object.entries(byFactory ?? {})) {
        for (const m of models) {
          choices.push({
            value: `${m.llm_name}@${factory}`,
            label: m.llm_name,
            factory,
            available: m.available !== false,
          });
        }
      }
      return choices;
    },
    staleTime: 60_000,
  });
}

export type CreateKbInput = Pick<BodyInput<typeof contract.kb.create>, 'name'> & { idempotencyKey?: string };

export function useCreateKb() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateKbInput) =>
      callRoute(contract.kb.create, { body: { name: input.name } }, { idempotencyKey: input.idempotencyKey }),
    onSuccess: (result) => {
      if (result.code === 0) void client.invalidateQueries({ queryKey: kbKeys.all });
    },
  });
}

export function useUpdateKb() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: KbUpdateBody) => callRoute(contract.kb.update, { body }),
    onSuccess: (result, body) => {
      if (result.code !== 0) return;
      void client.invalidateQueries({ queryKey: kbKeys.detail(body.kb_id) });
      void client.invalidateQueries({ queryKey: ['kb', 'list'] });
      void client.invalidateQueries({ queryKey: kbKeys.tagSets });
    },
  });
}

export function useRemoveKb() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (kbId: string) => callRoute(contract.kb.rm, { body: { kb_id: kbId } }),
    onSuccess: (result) => {
      if (result.code === 0) void client.invalidateQueries({ queryKey: kbKeys.all });
    },
  });
}

/** Every knowledge base the user can use (assistant and search pickers). */
export function useAllKbs() {
  return useQuery({
    queryKey: ['kb', 'list', 'all-for-chat'],
    queryFn: async () => unwrap(await listKbs({})).kbs,
    staleTime: 10_000,
  });
}

/** The assistants that use a KB (asked before deleting it). */
export function fetchKbUsage(kbId: string) {
  return callRoute(contract.kb.usage, { query: { kb_id: kbId } });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, RetCode, type BodyInput, type DataOf, type SearchConfigInput } from '@lectern/shared';
import i18n from '../i18n';
import { buildUrl, unwrap } from './request';
import { callRoute, streamRoute } from './route-call';
import { shareAuthorization, type ShareResult } from './chat-api';
import type { SseEnvelope, StreamOutcome } from './sse';

/** Hooks of the search apps (API.md §15) and the calls of their public share page (`/api/v1/searchbots`). */

export const searchKeys = {
  all: ['search-app'] as const,
  list: ['search-app', 'list'] as const,
  detail: (id: string) => ['search-app', 'detail', id] as const,
};

export function useSearchApps() {
  return useQuery({
    queryKey: searchKeys.list,
    queryFn: async () => unwrap(await callRoute(contract.search.list, { query: {}, body: {} })),
  });
}

export function fetchSearchApp(searchId: string) {
  return callRoute(contract.search.detail, { query: { search_id: searchId } });
}

export function useSearchApp(searchId: string | undefined) {
  return useQuery({
    queryKey: searchKeys.detail(searchId ?? ''),
    queryFn: async () =>
      unwrap(await callRoute(contract.search.detail, { query: { search_id: searchId ?? '' } })),
    enabled: Boolean(searchId),
  });
}

function useSearchMutation<I, T>(call: (input: I) => Promise<{ code: number } & T>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (result) => {
      if (result.code === 0) void client.invalidateQueries({ queryKey: searchKeys.all });
    },
  });
}

export function useCreateSearchApp() {
  return useSearchMutation((input: { name: string; description?: string }) =>
    callRoute(contract.search.create, { body: input }),
  );
}

export interface SearchAppUpdate {
  search_id: string;
  tenant_id: string;
  name: string;
  description?: string;
  search_config: SearchConfigInput;
}

export function useUpdateSearchApp() {
  return useSearchMutation((input: SearchAppUpdate) => callRoute(contract.search.update, { body: input }));
}

export function useRemoveSearchApp() {
  return useSearchMutation((searchId: string) =>
    callRoute(contract.search.rm, { body: { search_id: searchId } }),
  );
}

// ---- The search itself, signed in: the app's config applies on the server through `search_id` ----

export type RetrievalData = DataOf<typeof contract.chunk.retrievalTest>;
export type MindMapData = DataOf<typeof contract.conversation.mindmap>;

/** What a search page calls; the signed-in page and the share page each provide one. */
export interface SearchCalls {
  retrieve(question: string): Promise<ShareResult<RetrievalData>>;
  ask(question: string, onEvent: (event: SseEnvelope) => void, signal: AbortSignal): Promise<StreamOutcome>;
  related(question: string): Promise<ShareResult<string[]>>;
  mindMap(question: string): Promise<ShareResult<MindMapData>>;
}

const asShare = <T>(r: { code: number; message: string; data?: T | null }): ShareResult<T> => ({
  code: r.code,
  message: r.message,
  data: r.data ?? null,
});

export function appSearchCalls(searchId: string): SearchCalls {
  return {
    retrieve: async (question) =>
      asShare(
        await callRoute(contract.chunk.retrievalTest, {
          body: { kb_id: [], question, page: 1, size: 10, search_id: searchId },
        }),
      ),
    ask: (question, onEvent, signal) =>
      streamRoute(
        contract.conversation.ask,
        { question, kb_ids: [], search_id: searchId },
        { onEvent, signal },
      ),
    related: async (question) =>
      asShare(
        await callRoute(contract.conversation.relatedQuestions, { body: { question, search_id: searchId } }),
      ),
    mindMap: async (question) =>
      asShare(
        await callRoute(contract.conversation.mindmap, {
          body: { question, kb_ids: [], search_id: searchId },
        }),
      ),
  };
}

// ---- The share page: the beta token of the link, no session ----------------------------------

async function sharePost<T>(path: string, auth: string, body: unknown): Promise<ShareResult<T>> {
  try {
    const res = await fetch(buildUrl(path), {
      method: 'POST',
      headers: { Authorization: shareAuthorization(auth), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const parsed = (await res.json().catch(() => null)) as {
      code?: number;
      message?: string;
      data?: T;
    } | null;
    if (!parsed || typeof parsed.code !== 'number') {
      return {
        code: res.status || RetCode.EXCEPTION_ERROR,
        message: `${i18n.t('message.requestError')} ${res.status}: ${path}`,
        data: null,
      };
    }
    return { code: parsed.code, message: parsed.message ?? '', data: parsed.data ?? null };
  } catch {
    return {
      code: RetCode.NETWORK_FAILURE,
      message: i18n.t('message.networkAnomalyDescription'),
      data: null,
    };
  }
}

export async function fetchSharedSearch(
  searchId: string,
  auth: string,
): Promise<ShareResult<DataOf<typeof contract.searchBots.detail>>> {
  const path = buildUrl(contract.searchBots.detail.path, undefined, { search_id: searchId });
  try {
    const res = await fetch(path, { headers: { Authorization: shareAuthorization(auth) } });
    const body = (await res.json().catch(() => null)) as ShareResult<
      DataOf<typeof contract.searchBots.detail>
    > | null;
    if (!body || typeof body.code !== 'number') {
      return {
        code: res.status || RetCode.EXCEPTION_ERROR,
        message: `${i18n.t('message.requestError')} ${res.status}`,
        data: null,
      };
    }
    return { code: body.code, message: body.message ?? '', data: body.data ?? null };
  } catch {
    return {
      code: RetCode.NETWORK_FAILURE,
      message: i18n.t('message.networkAnomalyDescription'),
      data: null,
    };
  }
}

export function sharedSearchCalls(searchId: string, auth: string): SearchCalls {
  const bots = contract.searchBots;
  return {
    retrieve: (question) =>
      sharePost<RetrievalData>(bots.retrievalTest.path, auth, { question, search_id: searchId, size: 10 }),
    ask: (question, onEvent, signal) => {
      const body: BodyInput<typeof bots.ask> = { question, search_id: searchId };
      return streamRoute(bots.ask, body, { onEvent, signal, authorization: shareAuthorization(auth) });
    },
    related: (question) =>
      sharePost<string[]>(bots.relatedQuestions.path, auth, { question, search_id: searchId }),
    mindMap: (question) => sharePost<MindMapData>(bots.mindmap.path, auth, { question, search_id: searchId }),
  };
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  contract,
  RetCode,
  type ChatMessage,
  type DataOf,
  type PathParams,
  type RouteContract,
} from '@lectern/shared';
import i18n from '../i18n';
import { buildUrl, unwrap } from './request';
import { callRoute, routePath, streamRoute } from './route-call';
import type { SseEnvelope, StreamOutcome } from './sse';

/**
 * Hooks of an assistant's API panel (API.md §10: keys, statistics) and the calls of the public shared
 * chat page, which carries its own credential (`Bearer <auth>`) instead of the signed-in session.
 */

export const chatApiKeys = {
  tokens: (dialogId: string) => ['chat-api', 'tokens', dialogId] as const,
  stats: (range: { from_date: string; to_date: string }) => ['chat-api', 'stats', range] as const,
};

export function useDialogTokens(dialogId: string | undefined) {
  return useQuery({
    queryKey: chatApiKeys.tokens(dialogId ?? ''),
    queryFn: async () => unwrap(await callRoute(contract.api.tokenList, { query: { dialog_id: dialogId } })),
    enabled: Boolean(dialogId),
  });
}

export function useCreateDialogToken(dialogId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (idempotencyKey?: string) =>
      callRoute(contract.api.newToken, { body: { dialog_id: dialogId } }, { idempotencyKey }),
    onSuccess: (result) => {
      if (result.code === 0) void client.invalidateQueries({ queryKey: chatApiKeys.tokens(dialogId) });
    },
  });
}

export function useRemoveDialogTokens(dialogId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { tokens: string[]; tenantId: string }) =>
      callRoute(contract.api.rm, { body: { tokens: input.tokens, tenant_id: input.tenantId } }),
    onSuccess: (result) => {
      if (result.code === 0) void client.invalidateQueries({ queryKey: chatApiKeys.tokens(dialogId) });
    },
  });
}

export function useChatStats(range: { from_date: string; to_date: string }) {
  return useQuery({
    queryKey: chatApiKeys.stats(range),
    queryFn: async () => unwrap(await callRoute(contract.api.stats, { query: range })),
    staleTime: 0,
  });
}

/** The shared page's own credential header: the beta token of the embed link. */
export function shareAuthorization(auth: string): string {
  return `Bearer ${auth}`;
}

export interface ShareResult<T> {
  code: number;
  message: string;
  data: T | null;
}

/** A GET of a contract route with the share credential. Never throws; no session handling here. */
async function shareGet<R extends RouteContract & { method: 'GET' }>(
  route: R,
  auth: string,
  params: PathParams<R['path']>,
  query?: Record<string, unknown>,
): Promise<ShareResult<DataOf<R>>> {
  type T = DataOf<R>;
  const url = routePath(route.path, params as Record<string, string>);
  try {
    const res = await fetch(buildUrl(url, undefined, query), {
      headers: { Authorization: shareAuthorization(auth) },
    });
    const body = (await res.json().catch(() => null)) as { code?: number; message?: string; data?: T } | null;
    if (!body || typeof body.code !== 'number') {
      return {
        code: res.status || RetCode.EXCEPTION_ERROR,
        message: `${i18n.t('message.requestError')} ${res.status}: ${url}`,
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

/** The shared assistant (`conversation/getsse/<dialog_id>`; `icon` comes as `avatar`). */
export function fetchSharedDialog(dialogId: string, auth: string) {
  return shareGet(contract.conversation.getsse, auth, { dialog_id: dialogId });
}

/** A session for one visitor of the shared page (`api/new_conversation`). */
export function openSharedSession(auth: string, userId: string) {
  return shareGet(contract.api.newConversation, auth, {}, { user_id: userId });
}

/** The stored session (`api/conversation/<id>`): messages with citations, and their references. */
export function fetchSharedSession(auth: string, sessionId: string) {
  return shareGet(contract.api.conversation, auth, { id: sessionId });
}

/** One answer on the shared page (`api/completion`, citations asked for). */
export function streamSharedCompletion(
  auth: string,
  sessionId: string,
  messages: ChatMessage[],
  onEvent: (event: SseEnvelope) => void,
  signal: AbortSignal,
): Promise<StreamOutcome> {
  return streamRoute(
    contract.api.completion,
    { conversation_id: sessionId, messages, quote: true },
    { onEvent, signal, authorization: shareAuthorization(auth) },
  );
}

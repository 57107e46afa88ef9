import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  RetCode,
  type ApiTokenRow,
  type ChatMessage,
  type ChatStats,
  type Conversation,
  type Dialog,
} from '@lectern/shared';
import i18n from '../i18n';
import { api, buildUrl, unwrap } from './request';
import { postSse, type SseEnvelope, type StreamOutcome } from './sse';

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
    queryFn: async () =>
      unwrap(await api.get<ApiTokenRow[]>('/v1/api/token_list', { data: { dialog_id: dialogId } })),
    enabled: Boolean(dialogId),
  });
}

export function useCreateDialogToken(dialogId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<ApiTokenRow>('/v1/api/new_token', { dialog_id: dialogId }),
    onSuccess: (result) => {
      if (result.code === 0) void client.invalidateQueries({ queryKey: chatApiKeys.tokens(dialogId) });
    },
  });
}

export function useRemoveDialogTokens(dialogId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { tokens: string[]; tenantId: string }) =>
      api.post<boolean>('/v1/api/rm', { tokens: input.tokens, tenant_id: input.tenantId }),
    onSuccess: (result) => {
      if (result.code === 0) void client.invalidateQueries({ queryKey: chatApiKeys.tokens(dialogId) });
    },
  });
}

export function useChatStats(range: { from_date: string; to_date: string }) {
  return useQuery({
    queryKey: chatApiKeys.stats(range),
    queryFn: async () => unwrap(await api.get<ChatStats>('/v1/api/stats', { data: range })),
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

/** A GET with the share credential. Never throws; no session handling (there is no session here). */
async function shareGet<T>(
  url: string,
  auth: string,
  query?: Record<string, unknown>,
): Promise<ShareResult<T>> {
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
  return shareGet<Dialog & { avatar?: string | null }>(
    `/conversation/getsse/${encodeURIComponent(dialogId)}`,
    auth,
  );
}

/** A session for one visitor of the shared page (`api/new_conversation`). */
export function openSharedSession(auth: string, userId: string) {
  return shareGet<Pick<Conversation, 'id' | 'dialog_id' | 'message'>>('/v1/api/new_conversation', auth, {
    user_id: userId,
  });
}

/** The stored session (`api/conversation/<id>`): messages with citations, and their references. */
export function fetchSharedSession(auth: string, sessionId: string) {
  return shareGet<Pick<Conversation, 'id' | 'message' | 'reference'>>(
    `/v1/api/conversation/${encodeURIComponent(sessionId)}`,
    auth,
  );
}

/** One answer on the shared page (`api/completion`, citations asked for). */
export function streamSharedCompletion(
  auth: string,
  sessionId: string,
  messages: ChatMessage[],
  onEvent: (event: SseEnvelope) => void,
  signal: AbortSignal,
): Promise<StreamOutcome> {
  return postSse(
    '/v1/api/completion',
    { conversation_id: sessionId, messages, quote: true },
    { onEvent, signal, authorization: shareAuthorization(auth) },
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, type ChatMessage, type Conversation, type DataOf } from '@lectern/shared';
import { unwrap, type ApiResult } from './request';
import { callRoute, streamRoute } from './route-call';
import type { SseEnvelope, StreamOutcome } from './sse';

/** Hooks of the conversation area (API.md §9) and the search page's calls. */

export const conversationKeys = {
  all: ['conversation'] as const,
  list: (dialogId: string) => ['conversation', 'list', dialogId] as const,
  detail: (id: string) => ['conversation', 'detail', id] as const,
};

export function useConversationList(dialogId: string | undefined) {
  return useQuery({
    queryKey: conversationKeys.list(dialogId ?? ''),
    queryFn: async () =>
      unwrap(await callRoute(contract.conversation.list, { query: { dialog_id: dialogId ?? '' } })),
    enabled: Boolean(dialogId),
  });
}

export async function fetchConversation(id: string): Promise<Conversation> {
  return unwrap(await callRoute(contract.conversation.get, { query: { conversation_id: id } }));
}

/** How often, and how many times, a conversation whose last question has no answer yet is read again. */
export const PENDING_ANSWER_POLL = { intervalMs: 1000, reads: 20 };

export function useConversation(id: string | undefined) {
  return useQuery({
    queryKey: conversationKeys.detail(id ?? ''),
    queryFn: () => fetchConversation(id as string),
    enabled: Boolean(id),
    staleTime: 0,
    // The server saves a question before answering it: opened mid-answer (a reload), the
    // conversation ends with the question until the answer is stored — read it again meanwhile.
    refetchInterval: (query) =>
      query.state.data?.message.at(-1)?.role === 'user' &&
      query.state.dataUpdateCount < PENDING_ANSWER_POLL.reads
        ? PENDING_ANSWER_POLL.intervalMs
        : false,
  });
}

/** After a change that answers with the updated conversation: the cache takes it as it is. */
function useConversationMutation<I>(call: (input: I) => Promise<ApiResult<Conversation>>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (result) => {
      if (result.code !== 0 || !result.data) return;
      client.setQueryData(conversationKeys.detail(result.data.id), (old: Conversation | undefined) =>
        old ? { ...old, ...result.data } : result.data,
      );
      void client.invalidateQueries({ queryKey: conversationKeys.list(result.data.dialog_id) });
    },
  });
}

export interface NewConversationInput {
  dialogId: string;
  conversationId: string;
  name: string;
}

/** A new conversation with a client-made id (`is_new: true`). */
export function useCreateConversation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: NewConversationInput) =>
      callRoute(
        contract.conversation.set,
        {
          body: {
            is_new: true,
            conversation_id: input.conversationId,
            dialog_id: input.dialogId,
            name: input.name,
          },
        },
        // The client-made id names this one creation: a repeat of it replays the first answer.
        { idempotencyKey: input.conversationId },
      ),
    onSuccess: (result, input) => {
      if (result.code === 0)
        void client.invalidateQueries({ queryKey: conversationKeys.list(input.dialogId) });
    },
  });
}

/** `set` answers a new conversation (`is_new`) or the whole conversation; a rename gets the latter. */
function renamed(result: ApiResult<DataOf<typeof contract.conversation.set>>): ApiResult<Conversation> {
  const data = result.data && 'create_time' in result.data ? result.data : null;
  return { ...result, data };
}

export function useRenameConversation() {
  return useConversationMutation(async (input: { conversationId: string; name: string }) =>
    renamed(
      await callRoute(contract.conversation.set, {
        body: { is_new: false, conversation_id: input.conversationId, name: input.name },
      }),
    ),
  );
}

export function useRemoveConversations(dialogId: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => callRoute(contract.conversation.rm, { body: { conversation_ids: ids } }),
    onSuccess: (result) => {
      if (result.code === 0)
        void client.invalidateQueries({ queryKey: conversationKeys.list(dialogId ?? '') });
    },
  });
}

export function useDeleteMessage() {
  return useConversationMutation((input: { conversationId: string; messageId: string }) =>
    callRoute(contract.conversation.deleteMsg, {
      body: { conversation_id: input.conversationId, message_id: input.messageId },
    }),
  );
}

export function useThumbup() {
  return useConversationMutation(
    (input: { conversationId: string; messageId: string; thumbup: boolean; feedback?: string }) =>
      callRoute(contract.conversation.thumbup, {
        body: {
          conversation_id: input.conversationId,
          message_id: input.messageId,
          thumbup: input.thumbup,
          ...(input.feedback ? { feedback: input.feedback } : {}),
        },
      }),
  );
}

/** Streams one answer of `/v1/conversation/completion`. */
export function streamCompletion(
  conversationId: string,
  messages: ChatMessage[],
  onEvent: (event: SseEnvelope) => void,
  signal: AbortSignal,
): Promise<StreamOutcome> {
  return streamRoute(
    contract.conversation.completion,
    { conversation_id: conversationId, messages },
    { onEvent, signal },
  );
}

/** Speech of an answer (`audio/mpeg`), or null when the server refused (its message is shown). */
export async function speak(text: string): Promise<{ audio: Blob | null; message: string; code: number }> {
  const result = await callRoute(contract.conversation.tts, { body: { text } }, { responseType: 'blob' });
  const blob = result.data;
  if (result.code !== 0 || !blob) return { audio: null, message: result.message, code: result.code };
  // A refusal is an envelope with HTTP 200, which the blob reader hands over as bytes.
  if (blob.type.includes('json')) {
    try {
      const envelope = JSON.parse(await blob.text()) as { code?: number; message?: string };
      return { audio: null, message: envelope.message ?? '', code: envelope.code ?? 100 };
    } catch {
      return { audio: null, message: '', code: 100 };
    }
  }
  return { audio: blob, message: '', code: 0 };
}

/** The search page's AI summary, streamed like a completion. */
export function streamAsk(
  question: string,
  kbIds: string[],
  onEvent: (event: SseEnvelope) => void,
  signal: AbortSignal,
): Promise<StreamOutcome> {
  return streamRoute(contract.conversation.ask, { question, kb_ids: kbIds }, { onEvent, signal });
}

/** Ranked chunks for the search page (`chunk/retrieval_test`, the UI's threshold 0.2). */
export function retrievalTest(question: string, kbIds: string[], page = 1, size = 10) {
  return callRoute(contract.chunk.retrievalTest, {
    body: {
      kb_id: kbIds,
      question,
      page,
      size,
      similarity_threshold: 0.2,
      vector_similarity_weight: 0.3,
    },
  });
}

export function fetchRelatedQuestions(question: string) {
  return callRoute(contract.conversation.relatedQuestions, { body: { question } });
}

export function fetchMindMap(question: string, kbIds: string[]) {
  return callRoute(contract.conversation.mindmap, { body: { question, kb_ids: kbIds } });
}

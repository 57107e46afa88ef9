import { useEffect, useRef, useState } from 'react';
import { Alert, Spin, Tag, theme } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ChatMessage, Dialog } from '@lectern/shared';
import {
  conversationKeys,
  fetchConversation,
  streamCompletion,
  useConversation,
  useCreateConversation,
  useDeleteMessage,
  useRenameConversation,
  useThumbup,
} from '../../../api/conversation';
import { feedback } from '../../../api/feedback';
import { alreadyShown, type ApiResult } from '../../../api/request';
import { EMPTY_REFERENCE } from '../lib/answer-stream';
import {
  lastAnswerIndex,
  nameFromQuestion,
  newId,
  referenceAt,
  regenerateRequest,
  withQuestion,
} from '../lib/messages';
import { Composer } from './Composer';
import { FeedbackModal } from './FeedbackModal';
import { MessageItem, type MessageActions } from './MessageItem';
import { useAnswerStream } from './use-answer-stream';
import { useMessageTools } from './use-message-tools';

type Leftover = 'stopped' | 'error' | null;

/**
 * A conversation with an assistant: the stored messages (the greeting first), a question box, the
 * answer streaming in, and per-message actions. After an answer ends the stored conversation is read
 * again: it holds the answer with the citations the server inserted and its reference.
 */
export function ConversationView({
  dialog,
  conversationId,
  onCreated,
}: {
  dialog: Dialog;
  conversationId: string | null;
  onCreated: (id: string) => void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const client = useQueryClient();
  const conv = useConversation(conversationId ?? undefined);
  const create = useCreateConversation();
  const rename = useRenameConversation();
  const removeMessage = useDeleteMessage();
  const thumb = useThumbup();
  const stream = useAnswerStream();
  const tools = useMessageTools();
  const [pending, setPending] = useState<ChatMessage[] | null>(null);
  const [leftover, setLeftover] = useState<Leftover>(null);
  const [feedbackFor, setFeedbackFor] = useState<string | null>(null);
  const justCreated = useRef<string | null>(null);
  const end = useRef<HTMLDivElement>(null);
  const { stop, reset } = stream;

  // Another conversation: whatever streamed here stops (except the one this view just created).
  useEffect(() => {
    if (conversationId !== null && conversationId === justCreated.current) return;
    stop();
    reset();
    setPending(null);
    setLeftover(null);
  }, [conversationId, stop, reset]);

  const stored: ChatMessage[] =
    conv.data?.message ??
    (conversationId ? [] : [{ role: 'assistant', content: dialog.prompt_config.prologue }]);
  const shown = pending ?? stored;
  const answerText = stream.answer?.content ?? '';

  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [shown.length, answerText.length]);

  async function ask(convId: string, request: ChatMessage[], firstQuestion: string | null) {
    setPending(request);
    setLeftover(null);
    const questionId = request[request.length - 1]?.id ?? null;
    const { outcome, answer } = await stream.run(
      (onEvent, signal) => streamCompletion(convId, request, onEvent, signal),
      questionId,
    );
    if (outcome.aborted) {
      setLeftover('stopped');
      return;
    }
    if (!outcome.ok) {
      if (!outcome.shown) feedback.error(outcome.message);
      setPending(null);
      stream.reset();
      return;
    }
    if (answer.error) {
      setLeftover('error');
      return;
    }
    if (firstQuestion)
      await rename.mutateAsync({ conversationId: convId, name: nameFromQuestion(firstQuestion) });
    const fresh = await fetchConversation(convId).catch(() => null);
    if (fresh) client.setQueryData(conversationKeys.detail(convId), fresh);
    void client.invalidateQueries({ queryKey: conversationKeys.list(dialog.id) });
    setPending(null);
    stream.reset();
  }

  // One question at a time: a second Send before the first one's conversation exists is dropped.
  const sending = useRef(false);
  async function send(text: string) {
    if (sending.current) return;
    sending.current = true;
    try {
      await sendOnce(text);
    } finally {
      sending.current = false;
    }
  }

  async function sendOnce(text: string) {
    let convId = conversationId;
    let history = stored;
    if (!convId) {
      const id = newId();
      const result = await create.mutateAsync({
        dialogId: dialog.id,
        conversationId: id,
        name: nameFromQuestion(text),
      });
      if (result.code !== 0 || !result.data) {
        if (!alreadyShown(result)) feedback.error(result.message);
        return;
      }
      justCreated.current = id;
      client.setQueryData(conversationKeys.detail(id), result.data);
      onCreated(id);
      convId = id;
      history = result.data.message;
    }
    // A conversation made with the "new conversation" button takes its name from its first question.
    const defaultName = [t('chat.newConversation'), 'New conversation'].includes(conv.data?.name ?? '');
    const first =
      conversationId !== null && defaultName && !history.some((m) => m.role === 'user') ? text : null;
    await ask(convId, withQuestion(history, text), first);
  }

  const report = (result: ApiResult<unknown>) => {
    if (result.code !== 0 && !alreadyShown(result)) feedback.error(result.message);
  };

  function actionsFor(message: ChatMessage, index: number): MessageActions {
    if (!conversationId || pending) return {};
    const copy = () => void tools.copy(message.content);
    if (message.role === 'user') {
      return {
        onCopy: copy,
        onDelete: message.id
          ? async () =>
              report(await removeMessage.mutateAsync({ conversationId, messageId: message.id as string }))
          : undefined,
      };
    }
    const answered = index > 0 && stored[index - 1]?.role === 'user' && Boolean(message.id);
    if (!answered) return { onCopy: copy };
    const id = message.id as string;
    const request = index === lastAnswerIndex(stored) ? regenerateRequest(stored, index) : null;
    return {
      onCopy: copy,
      onRegenerate: request ? () => void ask(conversationId, request, null) : undefined,
      onThumbUp: async () =>
        report(await thumb.mutateAsync({ conversationId, messageId: id, thumbup: true })),
      onThumbDown: () => setFeedbackFor(id),
      onDelete: async () => report(await removeMessage.mutateAsync({ conversationId, messageId: id })),
      onSpeak: dialog.prompt_config.tts ? () => void tools.say(id, message.content) : undefined,
      speaking: tools.speakingId === id,
    };
  }

  // While a conversation loads only the message area waits: the composer stays mounted, so a question
  // typed meanwhile (e.g. right after "New conversation") is kept.
  const loading = Boolean(conversationId && conv.isPending && !pending);
  if (conversationId && conv.isError && !pending) {
    return <Alert type="error" showIcon title={conv.error.message || t('chat.conversationUnavailable')} />;
  }

  const reference = (i: number) =>
    pending ? EMPTY_REFERENCE : conv.data ? referenceAt(conv.data, i) : EMPTY_REFERENCE;
  const avatar = conv.data?.avatar ?? dialog.icon;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}>
      <div style={{ flex: 1, overflowY: 'auto', padding: '16px 8px' }} aria-live="polite">
        {loading && (
          <div style={{ display: 'flex', justifyContent: 'center', padding: 48 }}>
            <Spin />
          </div>
        )}
        <ol
          aria-label={t('chat.messages')}
          style={{ margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 18 }}
        >
          {shown.map((m, i) => (
            <MessageItem
              key={`${m.role}-${m.id ?? 'greeting'}-${i}`}
              message={m}
              reference={reference(i)}
              avatar={avatar}
              actions={actionsFor(m, i)}
            />
          ))}
          {pending && stream.answer && (
            <MessageItem
              message={{
                role: 'assistant',
                content: stream.answer.error ? `**ERROR**: ${stream.answer.error}` : answerText,
              }}
              reference={stream.answer.reference}
              avatar={avatar}
              streaming={stream.streaming}
              error={leftover === 'error'}
            />
          )}
        </ol>
        {leftover === 'stopped' && (
          <Tag style={{ marginTop: 8, marginLeft: 42 }} color="warning">
            {t('chat.stopped')}
          </Tag>
        )}
        <div ref={end} />
      </div>
      <div style={{ padding: '8px 8px 0', borderTop: `1px solid ${token.colorBorderSecondary}` }}>
        <Composer
          onSend={(text) => void send(text)}
          onStop={stream.stop}
          streaming={stream.streaming}
          disabled={create.isPending || loading}
        />
      </div>
      <FeedbackModal
        open={feedbackFor !== null}
        submitting={thumb.isPending}
        onCancel={() => setFeedbackFor(null)}
        onSubmit={async (text) => {
          if (!conversationId || !feedbackFor) return;
          const result = await thumb.mutateAsync({
            conversationId,
            messageId: feedbackFor,
            thumbup: false,
            feedback: text,
          });
          report(result);
          if (result.code === 0) {
            feedback.success(t('chat.feedbackThanks'));
            setFeedbackFor(null);
          }
        }}
      />
    </div>
  );
}

import { useEffect, useRef, useState } from 'react';
import { Alert, Avatar, Result, Spin, Typography, theme } from 'antd';
import { RobotOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ChatMessage, Reference, SharedDialog } from '@lectern/shared';
import {
  fetchSharedDialog,
  fetchSharedSession,
  openSharedSession,
  streamSharedCompletion,
} from '../../api/chat-api';
import { changeLanguage, isLanguageCode } from '../../i18n';
import {
  Composer,
  MessageItem,
  newId,
  referenceSlots,
  toReference,
  useAnswerStream,
  withQuestion,
} from '../chat';

const VISITOR_KEY = 'lectern.share.visitor';

/** A stable anonymous id for this browser, sent as the session's end-user id. */
function visitorId(): string {
  const known = localStorage.getItem(VISITOR_KEY);
  if (known) return known;
  const id = newId();
  localStorage.setItem(VISITOR_KEY, id);
  return id;
}

type Load =
  { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; dialog: SharedDialog };

/**
 * The shared chat page that the embed snippets point to (`/chat/share?shared_id=<dialog_id>&auth=<beta>`).
 * It works without a signed-in session: the assistant comes from `conversation/getsse` with the embed
 * link's credential, and conversations go through the chat API (`api/new_conversation`, `api/completion`).
 */
export default function SharedChatPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [params] = useSearchParams();
  const dialogId = params.get('shared_id') ?? '';
  const auth = params.get('auth') ?? '';
  const locale = params.get('locale');
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [session, setSession] = useState<string | null>(null);
  const [sessionError, setSessionError] = useState<string | null>(null);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [references, setReferences] = useState<unknown[]>([]);
  const [pending, setPending] = useState<ChatMessage[] | null>(null);
  const stream = useAnswerStream();
  const end = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (locale && isLanguageCode(locale)) void changeLanguage(locale);
  }, [locale]);

  useEffect(() => {
    if (!dialogId || !auth) return;
    let alive = true;
    void (async () => {
      const found = await fetchSharedDialog(dialogId, auth);
      if (!alive) return;
      if (found.code !== 0 || !found.data) {
        setLoad({ state: 'error', message: found.message });
        return;
      }
      setLoad({ state: 'ready', dialog: found.data });
      setMessages([{ role: 'assistant', content: found.data.prompt_config.prologue }]);
      const opened = await openSharedSession(auth, visitorId());
      if (!alive) return;
      if (opened.code !== 0 || !opened.data) setSessionError(opened.message);
      else {
        setSession(opened.data.id);
        setMessages(opened.data.message);
      }
    })();
    return () => {
      alive = false;
    };
  }, [dialogId, auth]);

  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length, pending, stream.answer?.content.length]);

  if (!dialogId || !auth) {
    return <Result status="warning" title={t('chat.share.badLink')} subTitle={t('chat.share.badLinkHint')} />;
  }
  if (load.state === 'loading') {
    return (
      <div style={{ display: 'flex', justifyContent: 'center', padding: 64 }}>
        <Spin />
      </div>
    );
  }
  if (load.state === 'error')
    return <Result status="error" title={t('chat.share.unavailable')} subTitle={load.message} />;

  const send = async (text: string) => {
    if (!session) return;
    const request = withQuestion(messages, text);
    setPending(request);
    const { outcome, answer } = await stream.run(
      (onEvent, signal) => streamSharedCompletion(auth, session, request, onEvent, signal),
      request[request.length - 1].id ?? null,
    );
    if (!outcome.ok && !outcome.aborted) {
      setSessionError(outcome.message);
      setPending(null);
      stream.reset();
      return;
    }
    // The stored session holds the answer with its citations; fall back to what streamed.
    const stored = outcome.ok && !answer.error ? await fetchSharedSession(auth, session) : null;
    if (stored?.code === 0 && stored.data) {
      setMessages(stored.data.message);
      setReferences(stored.data.reference);
    } else {
      const content = answer.error ? `**ERROR**: ${answer.error}` : answer.content;
      setMessages([...request, { role: 'assistant', content, id: request[request.length - 1].id }]);
      setReferences((refs) => [...refs, answer.reference]);
    }
    setPending(null);
    stream.reset();
  };

  const slots = referenceSlots(messages);
  const referenceOf = (i: number): Reference => toReference(references[slots.get(i) ?? -1]);
  const dialog = load.dialog;
  const shown = pending ?? messages;

  return (
    <main
      style={{
        display: 'flex',
        flexDirection: 'column',
        height: '100vh',
        background: token.colorBgContainer,
      }}
    >
      <header
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 10,
          padding: '10px 16px',
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        <Avatar src={dialog.avatar || undefined} icon={<RobotOutlined />} alt="" />
        <Typography.Title level={1} style={{ fontSize: 16, margin: 0 }}>
          {dialog.name}
        </Typography.Title>
      </header>
      <div style={{ flex: 1, overflowY: 'auto', padding: 16 }} aria-live="polite">
        <ol
          aria-label={t('chat.messages')}
          style={{ margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 18 }}
        >
          {shown.map((m, i) => (
            <MessageItem
              key={`${m.id ?? 'greeting'}-${i}`}
              message={m}
              reference={pending ? toReference(null) : referenceOf(i)}
              avatar={dialog.avatar}
            />
          ))}
          {pending && stream.answer && (
            <MessageItem
              message={{
                role: 'assistant',
                content: stream.answer.error ? `**ERROR**: ${stream.answer.error}` : stream.answer.content,
              }}
              reference={stream.answer.reference}
              avatar={dialog.avatar}
              streaming={stream.streaming}
            />
          )}
        </ol>
        <div ref={end} />
      </div>
      <div style={{ padding: 12, borderTop: `1px solid ${token.colorBorderSecondary}` }}>
        {sessionError && <Alert type="error" showIcon title={sessionError} style={{ marginBottom: 8 }} />}
        <Composer
          onSend={(text) => void send(text)}
          onStop={stream.stop}
          streaming={stream.streaming}
          disabled={!session}
        />
      </div>
    </main>
  );
}

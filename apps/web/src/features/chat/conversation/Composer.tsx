import { useRef, useState, type KeyboardEvent } from 'react';
import { Button, Input, theme } from 'antd';
import { PauseCircleOutlined, SendOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** Whether a key press sends: Enter alone (not Shift+Enter, not while an input method composes). */
export function sendsOnKey(e: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'nativeEvent'>): boolean {
  const composing = (e.nativeEvent as { isComposing?: boolean }).isComposing === true;
  return e.key === 'Enter' && !e.shiftKey && !composing;
}

/**
 * Stop takes Send's place when the question goes: the second click of a double-click on Send would
 * land on it. Clicks within this time of Stop appearing are that second click, not a request to stop.
 */
export const STOP_ARMS_AFTER_MS = 600;

/** Whether a click on Stop at `now` means stop (Stop has been shown long enough; see above). */
export function stopArmed(shownAt: number | null, now: number): boolean {
  return shownAt !== null && now - shownAt >= STOP_ARMS_AFTER_MS;
}

/** The question box: Enter sends, Shift+Enter makes a new line; while an answer streams, Stop. */
export function Composer({
  onSend,
  onStop,
  streaming,
  disabled = false,
  placeholder,
}: {
  onSend: (text: string) => void;
  onStop: () => void;
  streaming: boolean;
  disabled?: boolean;
  placeholder?: string;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [text, setText] = useState('');
  const stopShownAt = useRef<number | null>(null);
  if (!streaming) stopShownAt.current = null;
  else stopShownAt.current ??= Date.now();
  const send = () => {
    const question = text.trim();
    if (!question || streaming || disabled) return;
    onSend(question);
    setText('');
  };
  return (
    <div
      style={{
        display: 'flex',
        gap: 8,
        alignItems: 'flex-end',
        padding: 8,
        border: `1px solid ${token.colorBorder}`,
        borderRadius: 12,
        background: token.colorBgContainer,
      }}
    >
      <Input.TextArea
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (sendsOnKey(e)) {
            e.preventDefault();
            send();
          }
        }}
        autoSize={{ minRows: 1, maxRows: 8 }}
        variant="borderless"
        disabled={disabled}
        placeholder={placeholder ?? t('chat.askPlaceholder')}
        aria-label={t('chat.question')}
      />
      {streaming ? (
        <Button
          danger
          icon={<PauseCircleOutlined />}
          onClick={() => {
            if (stopArmed(stopShownAt.current, Date.now())) onStop();
          }}
        >
          {t('chat.stop')}
        </Button>
      ) : (
        <Button
          type="primary"
          icon={<SendOutlined />}
          onClick={send}
          disabled={disabled || text.trim() === ''}
        >
          {t('chat.send')}
        </Button>
      )}
    </div>
  );
}

import { useEffect, useState, type KeyboardEvent } from 'react';
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
 * land on it. Stop is disabled for this long after it appears, so that click does nothing.
 */
export const STOP_ARMS_AFTER_MS = 600;

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
  const [stopArmed, setStopArmed] = useState(false);
  useEffect(() => {
    setStopArmed(false);
    if (!streaming) return;
    const timer = setTimeout(() => setStopArmed(true), STOP_ARMS_AFTER_MS);
    return () => clearTimeout(timer);
  }, [streaming]);
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
        <Button danger icon={<PauseCircleOutlined />} disabled={!stopArmed} onClick={onStop}>
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

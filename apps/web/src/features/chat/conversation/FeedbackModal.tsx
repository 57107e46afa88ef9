import { useState } from 'react';
import { Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

/** Thumbs down: what was wrong with the answer (optional text), sent with `thumbup: false`. */
export function FeedbackModal({
  open,
  onCancel,
  onSubmit,
  submitting,
}: {
  open: boolean;
  onCancel: () => void;
  onSubmit: (feedback: string) => void;
  submitting: boolean;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  return (
    <Modal
      open={open}
      title={t('chat.feedbackTitle')}
      okText={t('chat.sendFeedback')}
      cancelText={t('common.cancel')}
      confirmLoading={submitting}
      onCancel={onCancel}
      onOk={() => onSubmit(text.trim())}
      afterClose={() => setText('')}
      destroyOnHidden
    >
      <Input.TextArea
        autoFocus
        rows={4}
        maxLength={2000}
        showCount
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-label={t('chat.feedbackLabel')}
        placeholder={t('chat.feedbackPlaceholder')}
      />
    </Modal>
  );
}

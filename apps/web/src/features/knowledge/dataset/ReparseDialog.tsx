import { useState } from 'react';
import { Modal, Radio, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** Re-parsing asks whether to clear the existing chunks first (SPEC §4). */
export function ReparseDialog({
  count,
  onRun,
  onClose,
  pending,
}: {
  count: number;
  onRun: (clearChunks: boolean) => void;
  onClose: () => void;
  pending: boolean;
}) {
  const { t } = useTranslation();
  const [clear, setClear] = useState(true);
  return (
    <Modal
      open
      title={t('knowledge.reparseTitle', { count })}
      okText={t('knowledge.reparse')}
      cancelText={t('common.cancel')}
      confirmLoading={pending}
      onOk={() => onRun(clear)}
      onCancel={onClose}
    >
      <Typography.Paragraph id="reparse-question">{t('knowledge.reparseQuestion')}</Typography.Paragraph>
      <Radio.Group
        value={clear}
        onChange={(e) => setClear(e.target.value as boolean)}
        aria-labelledby="reparse-question"
      >
        <Space orientation="vertical">
          <Radio value={true}>{t('knowledge.reparseClear')}</Radio>
          <Radio value={false}>{t('knowledge.reparseKeep')}</Radio>
        </Space>
      </Radio.Group>
    </Modal>
  );
}

import { useState } from 'react';
import { Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FileListItem } from '@lectern/shared';
import { feedback } from '../../api/feedback';
import { useMoveFiles } from '../../api/file';
import { showFailure } from '../../api/request';
import { movedIds } from './file-rules';
import { FileTreePicker } from './FileTreePicker';

/** Move entries to a destination folder chosen in the folder tree (same-name folders merge). */
export function MoveDialog({ entries, onClose }: { entries: FileListItem[]; onClose: () => void }) {
  const { t } = useTranslation();
  const [dest, setDest] = useState<string[]>([]);
  const move = useMoveFiles();

  const submit = async () => {
    const result = await move.mutateAsync({ fileIds: entries.map((e) => e.id), destId: dest[0]! });
    if (result.code === 0) {
      feedback.success(t('files.moved'));
      onClose();
    } else {
      showFailure(result);
    }
  };

  return (
    <Modal
      open
      title={t('files.moveTitle', { count: entries.length })}
      okText={t('files.moveHere')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: dest.length === 0 }}
      confirmLoading={move.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
    >
      <Typography.Paragraph type="secondary">{t('files.destinationFolder')}</Typography.Paragraph>
      <div role="group" aria-label={t('files.destinationFolder')}>
        <FileTreePicker
          mode="folder"
          value={dest}
          onChange={(ids) => setDest(ids)}
          disabledIds={movedIds(entries)}
        />
      </div>
    </Modal>
  );
}

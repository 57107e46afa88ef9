import { Button, Dropdown, Space, Tooltip } from 'antd';
import {
  DeleteOutlined,
  EditOutlined,
  MoreOutlined,
  PlayCircleOutlined,
  SettingOutlined,
  StopOutlined,
  SyncOutlined,
  TagsOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { DocumentInfo } from '@lectern/shared';
import { runKey } from '../progress';

export type DocAction = 'run' | 'cancel' | 'reparse' | 'rename' | 'parser' | 'meta' | 'delete';

/** What the primary action of a row is: parse, cancel while parsing, or re-parse once parsed. */
export function primaryAction(doc: Pick<DocumentInfo, 'run'>): 'run' | 'cancel' | 'reparse' {
  const key = runKey(doc.run);
  if (key === 'running' || key === 'schedule') return 'cancel';
  if (key === 'unstart') return 'run';
  return 'reparse';
}

export function RowActions({
  doc,
  onAction,
}: {
  doc: DocumentInfo;
  onAction: (action: DocAction, doc: DocumentInfo) => void;
}) {
  const { t } = useTranslation();
  const primary = primaryAction(doc);
  const icons = { run: <PlayCircleOutlined />, cancel: <StopOutlined />, reparse: <SyncOutlined /> };
  const labels = {
    run: t('knowledge.parse', { name: doc.name }),
    cancel: t('knowledge.cancelParse', { name: doc.name }),
    reparse: t('knowledge.reparseDoc', { name: doc.name }),
  };
  return (
    <Space size={0}>
      <Tooltip title={labels[primary]}>
        <Button
          type="text"
          icon={icons[primary]}
          aria-label={labels[primary]}
          onClick={() => onAction(primary, doc)}
        />
      </Tooltip>
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'rename', icon: <EditOutlined />, label: t('knowledge.rename') },
            { key: 'parser', icon: <SettingOutlined />, label: t('knowledge.changeMethod') },
            { key: 'meta', icon: <TagsOutlined />, label: t('knowledge.editMetadata') },
            { type: 'divider' },
            { key: 'delete', icon: <DeleteOutlined />, label: t('common.delete'), danger: true },
          ],
          onClick: ({ key }) => onAction(key as DocAction, doc),
        }}
      >
        <Button
          type="text"
          icon={<MoreOutlined />}
          aria-label={t('knowledge.moreActions', { name: doc.name })}
        />
      </Dropdown>
    </Space>
  );
}

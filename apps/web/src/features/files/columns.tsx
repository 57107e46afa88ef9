import { Button, Dropdown, Space, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import {
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  FileOutlined,
  FolderFilled,
  LinkOutlined,
  LockOutlined,
  MoreOutlined,
  SwapOutlined,
} from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatBytes, type FileListItem } from '@lectern/shared';
import { isLinkable, isReadOnly } from './file-rules';

export type FileAction = 'download' | 'rename' | 'move' | 'link' | 'delete';

/** `/file?folder=<id>` opens a folder (the root without the parameter). */
export const folderPath = (id: string | undefined) =>
  id ? `/file?folder=${encodeURIComponent(id)}` : '/file';

/** The file table: name, size, date, linked knowledge bases, actions (none on the read-only mirror). */
export function useFileColumns(
  onAction: (action: FileAction, entry: FileListItem) => void,
): ColumnsType<FileListItem> {
  const { t } = useTranslation();
  return [
    {
      title: t('files.col.name'),
      dataIndex: 'name',
      ellipsis: true,
      render: (_: string, f) => (
        <Space size={8} data-testid="file-name">
          {f.type === 'folder' ? <FolderFilled style={{ color: '#e9b949' }} /> : <FileOutlined />}
          {f.type === 'folder' ? (
            <Link to={folderPath(f.id)}>{f.name}</Link>
          ) : (
            <Button type="link" style={{ padding: 0 }} onClick={() => onAction('download', f)}>
              {f.name}
            </Button>
          )}
          {isReadOnly(f) && <LockOutlined aria-label={t('files.readOnly')} title={t('files.readOnly')} />}
        </Space>
      ),
    },
    {
      title: t('files.col.size'),
      dataIndex: 'size',
      width: 110,
      align: 'right',
      render: (size: number) => formatBytes(size),
    },
    {
      title: t('files.col.date'),
      dataIndex: 'create_time',
      width: 170,
      render: (ms: number) => (
        <time dateTime={new Date(ms).toISOString()}>{dayjs(ms).format('YYYY-MM-DD HH:mm:ss')}</time>
      ),
    },
    {
      title: t('files.col.kbs'),
      dataIndex: 'kbs_info',
      width: 260,
      render: (kbs: FileListItem['kbs_info']) => (
        <Space size={[4, 4]} wrap data-testid="file-kbs">
          {kbs.map((k) => (
            <Tag key={k.kb_id} color="blue">
              <Link to={`/knowledge/${k.kb_id}/dataset`}>{k.kb_name}</Link>
            </Tag>
          ))}
        </Space>
      ),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 80,
      render: (_: unknown, f) => {
        if (isReadOnly(f)) return null;
        const items = [
          ...(f.type !== 'folder'
            ? [{ key: 'download', icon: <DownloadOutlined />, label: t('files.download') }]
            : []),
          { key: 'rename', icon: <EditOutlined />, label: t('files.rename') },
          { key: 'move', icon: <SwapOutlined />, label: t('files.move') },
          ...(f.type === 'folder' || isLinkable(f)
            ? [{ key: 'link', icon: <LinkOutlined />, label: t('files.linkToKb') }]
            : []),
          { key: 'delete', icon: <DeleteOutlined />, label: t('common.delete'), danger: true },
        ];
        return (
          <Dropdown
            trigger={['click']}
            menu={{ items, onClick: ({ key }) => onAction(key as FileAction, f) }}
          >
            <Button
              type="text"
              icon={<MoreOutlined />}
              aria-label={t('files.actionsFor', { name: f.name })}
            />
          </Dropdown>
        );
      },
    },
  ];
}

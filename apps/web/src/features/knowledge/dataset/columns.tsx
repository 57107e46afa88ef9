import { Space, Switch, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { chunksPath } from '../../chunks';
import type { DocumentInfo } from '@lectern/shared';
import { useMethodLabel } from '../config/MethodSelect';
import { DocIcon } from './DocIcon';
import { ParsingStatus } from './ParsingStatus';
import { RowActions, type DocAction } from './RowActions';

/** The documents table: name, upload date, chunk number, chunk method, enabled, parsing status, actions. */
export function useDocumentColumns(
  onAction: (action: DocAction, doc: DocumentInfo) => void,
  onToggle: (doc: DocumentInfo, enabled: boolean) => void,
): ColumnsType<DocumentInfo> {
  const { t } = useTranslation();
  const methodLabel = useMethodLabel();
  return [
    {
      title: t('knowledge.col.name'),
      dataIndex: 'name',
      ellipsis: true,
      render: (_: string, doc) => (
        <Space size={8}>
          <DocIcon doc={doc} />
          <Typography.Text ellipsis={{ tooltip: doc.name }} style={{ maxWidth: 320 }} data-testid="doc-name">
            <Link to={chunksPath(doc.kb_id, doc.id)}>{doc.name}</Link>
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('knowledge.col.uploadDate'),
      dataIndex: 'create_time',
      width: 170,
      render: (ms: number) => (
        <time dateTime={new Date(ms).toISOString()}>{dayjs(ms).format('YYYY-MM-DD HH:mm:ss')}</time>
      ),
    },
    { title: t('knowledge.col.chunks'), dataIndex: 'chunk_num', width: 100, align: 'right' },
    {
      title: t('knowledge.col.method'),
      dataIndex: 'parser_id',
      width: 150,
      render: (method: string) => methodLabel(method),
    },
    {
      title: t('knowledge.col.enabled'),
      dataIndex: 'status',
      width: 90,
      render: (status: string, doc) => (
        <Switch
          size="small"
          checked={status === '1'}
          aria-label={t('knowledge.enableDoc', { name: doc.name })}
          onChange={(checked) => onToggle(doc, checked)}
        />
      ),
    },
    {
      title: t('knowledge.col.status'),
      dataIndex: 'run',
      width: 230,
      render: (_: string, doc) => <ParsingStatus doc={doc} />,
    },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 100,
      render: (_: unknown, doc) => <RowActions doc={doc} onAction={onAction} />,
    },
  ];
}

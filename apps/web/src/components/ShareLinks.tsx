import { Button, List, Popconfirm, Typography } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** A share link as the server lists it: the token's id and, when it has one, its beta token's hint. */
export interface ShareLinkRow {
  token: string;
  beta?: string | null;
}

/** The texts of one feature's share-link list (chat embeds, search apps), already translated. */
export interface ShareLinksLabels {
  title: string;
  empty: string;
  /** Delete button's accessible name and the confirmation's title. */
  delete: string;
  deleteConfirm: string;
}

/**
 * The links made before, listed by their hints (the server keeps no more than hashes and hints), each
 * with a delete behind a confirmation. Used by the chat embed dialog and the search app share dialog.
 */
export function ShareLinks<Row extends ShareLinkRow>({
  rows,
  loading,
  labels,
  onDelete,
}: {
  rows: Row[];
  loading: boolean;
  labels: ShareLinksLabels;
  onDelete: (row: Row) => Promise<void>;
}) {
  const { t } = useTranslation();
  return (
    <List
      size="small"
      header={<Typography.Text strong>{labels.title}</Typography.Text>}
      loading={loading}
      locale={{ emptyText: labels.empty }}
      dataSource={rows}
      rowKey="token"
      renderItem={(row) => (
        <List.Item
          actions={[
            <Popconfirm
              key="delete"
              title={labels.delete}
              description={labels.deleteConfirm}
              okText={t('common.delete')}
              cancelText={t('common.cancel')}
              okButtonProps={{ danger: true }}
              onConfirm={() => onDelete(row)}
            >
              <Button danger type="text" size="small" icon={<DeleteOutlined />} aria-label={labels.delete} />
            </Popconfirm>,
          ]}
        >
          <Typography.Text code data-testid="share-link-hint">
            {row.beta ?? row.token}
          </Typography.Text>
        </List.Item>
      )}
    />
  );
}

import { useState } from 'react';
import { Button, Empty, Popconfirm, Table, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import { useTranslation } from 'react-i18next';
import type { ApiTokenRow } from '@lectern/shared';
import { feedback } from '../../api/feedback';
import { alreadyShown, type ApiResult } from '../../api/request';
import { useSubmitOnce } from '../../api/submit-once';
import { useApiTokens, useCreateApiToken, useDeleteApiToken } from '../../api/system';
import { SectionHeading } from '../../components/SectionHeading';
import { ShownOnce } from '../../components/ShownOnce';

dayjs.extend(localizedFormat);

export default function ApiKeysPage() {
  const { t } = useTranslation();
  const tokens = useApiTokens();
  const create = useCreateApiToken();
  const remove = useDeleteApiToken();

  const once = useSubmitOnce();
  // The server stores only a hash and a hint of a key: the new key is in the create answer alone.
  const [newKey, setNewKey] = useState<string | null>(null);

  const report = (result: ApiResult<unknown> | null, success: string) => {
    if (!result) return; // a second click while the first create is in flight
    if (result.code === 0) feedback.success(success);
    else if (!alreadyShown(result)) feedback.error(result.message);
  };

  return (
    <>
      <SectionHeading title={t('settings.api')} description={t('settings.apiDescription')} />
      <Button
        type="primary"
        icon={<PlusOutlined />}
        loading={once.pending}
        onClick={async () => {
          const result = await once.run((key) => create.mutateAsync(key));
          if (result?.code === 0 && result.data) setNewKey(result.data.token);
          report(result, t('message.created'));
        }}
        style={{ marginBottom: 16 }}
      >
        {t('settings.createKey')}
      </Button>
      {newKey && (
        <div style={{ marginBottom: 16 }}>
          <ShownOnce value={newKey} label={t('settings.newKey')} testId="new-api-key" />
        </div>
      )}
      <Table<ApiTokenRow>
        rowKey="token"
        loading={tokens.isPending}
        dataSource={tokens.data ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description={t('settings.noKeys')} /> }}
        columns={[
          {
            title: t('settings.token'),
            dataIndex: 'token',
            // The list has hints only ("lectern-AbCd****wXyZ"): nothing to copy; the hint names the key to delete.
            render: (hint: string) => <Typography.Text code>{hint}</Typography.Text>,
          },
          {
            title: t('settings.createdAt'),
            dataIndex: 'create_time',
            width: 220,
            render: (ms: number) => (
              <time dateTime={new Date(ms).toISOString()}>{dayjs(ms).format('LLL')}</time>
            ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            width: 100,
            render: (_: unknown, row) => (
              <Popconfirm
                title={t('settings.deleteKey')}
                description={t('settings.deleteKeyConfirm')}
                okText={t('common.delete')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={async () => {
                  const result = await remove.mutateAsync(row.token);
                  if (result.code === 0 && newKey?.startsWith(row.token.slice(0, 12))) setNewKey(null);
                  report(result, t('message.deleted'));
                }}
              >
                <Button danger type="text" icon={<DeleteOutlined />} aria-label={t('settings.deleteKey')} />
              </Popconfirm>
            ),
          },
        ]}
      />
    </>
  );
}

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

dayjs.extend(localizedFormat);

export default function ApiKeysPage() {
  const { t } = useTranslation();
  const tokens = useApiTokens();
  const create = useCreateApiToken();
  const remove = useDeleteApiToken();

  const once = useSubmitOnce();

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
        onClick={async () => report(await once.run((key) => create.mutateAsync(key)), t('message.created'))}
        style={{ marginBottom: 16 }}
      >
        {t('settings.createKey')}
      </Button>
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
            render: (token: string) => (
              <Typography.Text
                code
                copyable={{
                  text: token,
                  tooltips: [t('settings.copyKey'), t('message.copied')],
                  onCopy: () => feedback.success(t('message.copied')),
                }}
              >
                {token}
              </Typography.Text>
            ),
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
                onConfirm={async () => report(await remove.mutateAsync(row.token), t('message.deleted'))}
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

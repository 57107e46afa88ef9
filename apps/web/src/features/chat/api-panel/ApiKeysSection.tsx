import { useState } from 'react';
import { Button, Empty, Popconfirm, Table, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import { useTranslation } from 'react-i18next';
import type { ApiTokenRow, Dialog } from '@lectern/shared';
import { useCreateDialogToken, useDialogTokens, useRemoveDialogTokens } from '../../../api/chat-api';
import { feedback } from '../../../api/feedback';
import { alreadyShown, type ApiResult } from '../../../api/request';
import { useSubmitOnce } from '../../../api/submit-once';
import { ShownOnce } from '../../../components/ShownOnce';

dayjs.extend(localizedFormat);

/** The service endpoint (origin + /v1/api). */
export function serviceEndpoint(origin: string = window.location.origin): string {
  return `${origin.replace(/\/$/, '')}/v1/api`;
}

/**
 * Service endpoint and the assistant's API keys: create (the new key is shown once, to copy), list by
 * hint, delete (after confirming).
 */
export function ApiKeysSection({ dialog }: { dialog: Dialog }) {
  const { t } = useTranslation();
  const tokens = useDialogTokens(dialog.id);
  const create = useCreateDialogToken(dialog.id);
  const remove = useRemoveDialogTokens(dialog.id);

  const once = useSubmitOnce();
  const [newKey, setNewKey] = useState<string | null>(null);

  const report = (result: ApiResult<unknown> | null, success: string) => {
    if (!result) return; // a second click while the first create is in flight
    if (result.code === 0) feedback.success(success);
    else if (!alreadyShown(result)) feedback.error(result.message);
  };

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <div>
        <Typography.Title level={3} style={{ fontSize: 15 }}>
          {t('chat.serviceEndpoint')}
        </Typography.Title>
        <Typography.Text
          code
          copyable={{ tooltips: [t('chat.copy'), t('message.copied')] }}
          data-testid="service-endpoint"
        >
          {serviceEndpoint()}
        </Typography.Text>
      </div>
      <div>
        <div
          style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', marginBottom: 8 }}
        >
          <Typography.Title level={3} style={{ fontSize: 15, margin: 0 }}>
            {t('chat.apiKeys')}
          </Typography.Title>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            loading={once.pending}
            onClick={async () => {
              const result = await once.run((key) => create.mutateAsync(key));
              if (result?.code === 0 && result.data) setNewKey(result.data.token);
              report(result, t('message.created'));
            }}
          >
            {t('chat.createApiKey')}
          </Button>
        </div>
        {newKey && (
          <div style={{ marginBottom: 8 }}>
            <ShownOnce value={newKey} label={t('chat.newApiKey')} testId="new-api-key" />
          </div>
        )}
        <Table<ApiTokenRow>
          rowKey="token"
          size="small"
          loading={tokens.isPending}
          dataSource={tokens.data ?? []}
          pagination={false}
          locale={{
            emptyText: (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('message.createApiKeyFirst')} />
            ),
          }}
          columns={[
            {
              title: t('chat.token'),
              dataIndex: 'token',
              // Hints only: the key itself was shown once, when it was made.
              render: (hint: string) => <Typography.Text code>{hint}</Typography.Text>,
            },
            {
              title: t('chat.createdAt'),
              dataIndex: 'create_time',
              width: 200,
              render: (ms: number) => (
                <time dateTime={new Date(ms).toISOString()}>{dayjs(ms).format('LLL')}</time>
              ),
            },
            {
              title: t('common.actions'),
              key: 'actions',
              width: 80,
              render: (_: unknown, row) => (
                <Popconfirm
                  title={t('chat.deleteKeyTitle')}
                  description={t('chat.deleteKeyConfirm')}
                  okText={t('common.delete')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={async () => {
                    const result = await remove.mutateAsync({ tokens: [row.token], tenantId: row.tenant_id });
                    if (result.code === 0 && newKey?.startsWith(row.token.slice(0, 12))) setNewKey(null);
                    report(result, t('message.deleted'));
                  }}
                >
                  <Button
                    danger
                    type="text"
                    icon={<DeleteOutlined />}
                    aria-label={t('chat.deleteKeyTitle')}
                  />
                </Popconfirm>
              ),
            },
          ]}
        />
      </div>
    </div>
  );
}

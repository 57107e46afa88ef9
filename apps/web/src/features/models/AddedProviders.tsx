import {
  Button,
  Card,
  Empty,
  Flex,
  Popconfirm,
  Skeleton,
  Space,
  Switch,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { DeleteOutlined, KeyOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { FactoryInfo } from '@lectern/shared';
import { feedback } from '../../api/feedback';
import { useDeleteFactory, useDeleteLlm, useEnableLlm } from '../../api/llm';
import { alreadyShown, type ApiResult } from '../../api/request';
import { usesApiKeyDialog } from './form-fields';
import { displayModelName, type AddedProvider } from './model-lists';
import type { DialogMode } from './ProviderDialog';
import { ProviderLogo } from './ProviderLogo';

/** "Added models": each configured provider with its models, their types, token usage and switches. */

type ModelRow = AddedProvider['models'][number];

export interface AddedProvidersProps {
  providers: AddedProvider[];
  factories: Map<string, FactoryInfo>;
  loading: boolean;
  onOpen: (factory: FactoryInfo, mode: DialogMode) => void;
}

function useReport() {
  const { t } = useTranslation();
  return (result: ApiResult<unknown>, successKey: string) => {
    if (result.code === 0) feedback.success(t(successKey));
    else if (!alreadyShown(result)) feedback.error(result.message);
  };
}

function ProviderCard({
  provider,
  factory,
  onOpen,
}: {
  provider: AddedProvider;
  factory: FactoryInfo | undefined;
  onOpen: AddedProvidersProps['onOpen'];
}) {
  const { t, i18n } = useTranslation();
  const report = useReport();
  const removeFactory = useDeleteFactory();
  const removeModel = useDeleteLlm();
  const enable = useEnableLlm();
  const number = (n: number) => n.toLocaleString(i18n.language);

  const actions = (
    <Space wrap>
      {factory && usesApiKeyDialog(factory) && (
        <Button size="small" icon={<KeyOutlined />} onClick={() => onOpen(factory, 'apiKey')}>
          {t('models.setApiKey')}
        </Button>
      )}
      {factory && (
        <Button size="small" icon={<PlusOutlined />} onClick={() => onOpen(factory, 'addModel')}>
          {t('models.addModel')}
        </Button>
      )}
      <Popconfirm
        title={t('models.removeProvider')}
        description={t('models.removeProviderConfirm', { name: provider.name })}
        okText={t('common.delete')}
        cancelText={t('common.cancel')}
        okButtonProps={{ danger: true }}
        onConfirm={async () => report(await removeFactory.mutateAsync(provider.name), 'message.deleted')}
      >
        <Button size="small" danger icon={<DeleteOutlined />}>
          {t('models.removeProvider')}
        </Button>
      </Popconfirm>
    </Space>
  );

  return (
    <Card
      size="small"
      role="region"
      aria-label={provider.name}
      title={
        <Space>
          <ProviderLogo name={provider.name} logo={factory?.logo} size={32} />
          <span>{provider.name}</span>
          <Typography.Text type="secondary" style={{ fontWeight: 'normal', fontSize: 13 }}>
            {t('models.usedTokensValue', { value: number(provider.usedToken) })}
          </Typography.Text>
        </Space>
      }
      extra={actions}
    >
      <Table<ModelRow>
        size="small"
        rowKey="name"
        dataSource={provider.models}
        pagination={
          provider.models.length > 6 ? { pageSize: 6, size: 'small', hideOnSinglePage: true } : false
        }
        columns={[
          {
            title: t('models.model'),
            dataIndex: 'name',
            render: (name: string, row) => (
              <Flex vertical>
                <Typography.Text strong={row.enabled} type={row.enabled ? undefined : 'secondary'}>
                  {displayModelName(name)}
                </Typography.Text>
                {row.apiBase && (
                  <Typography.Text
                    type="secondary"
                    style={{ fontSize: 12 }}
                    ellipsis={{ tooltip: row.apiBase }}
                  >
                    {row.apiBase}
                  </Typography.Text>
                )}
              </Flex>
            ),
          },
          {
            title: t('models.type'),
            dataIndex: 'type',
            width: 140,
            render: (type: string) => <Tag>{t(`models.types.${type}`, { defaultValue: type })}</Tag>,
          },
          {
            title: t('models.maxTokens'),
            dataIndex: 'maxTokens',
            width: 110,
            align: 'right',
            render: (v: number | undefined) => (v ? number(v) : '—'),
          },
          {
            title: t('models.usedTokens'),
            dataIndex: 'usedToken',
            width: 120,
            align: 'right',
            render: (v: number) => number(v),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            width: 110,
            render: (_: unknown, row) => {
              const shown = displayModelName(row.name);
              const ref = { llm_factory: provider.name, llm_name: row.name };
              return (
                <Space>
                  <Tooltip title={row.enabled ? t('models.disable') : t('models.enable')}>
                    <Switch
                      size="small"
                      checked={row.enabled}
                      aria-label={t('models.enableModel', { name: shown })}
                      onChange={async (on) =>
                        report(
                          await enable.mutateAsync({ ...ref, status: on ? '1' : '0' }),
                          'message.operated',
                        )
                      }
                    />
                  </Tooltip>
                  <Popconfirm
                    title={t('models.deleteModel')}
                    description={t('models.deleteModelConfirm', { name: shown })}
                    okText={t('common.delete')}
                    cancelText={t('common.cancel')}
                    okButtonProps={{ danger: true }}
                    onConfirm={async () => report(await removeModel.mutateAsync(ref), 'message.deleted')}
                  >
                    <Button
                      type="text"
                      danger
                      size="small"
                      icon={<DeleteOutlined />}
                      aria-label={t('models.deleteModelNamed', { name: shown })}
                    />
                  </Popconfirm>
                </Space>
              );
            },
          },
        ]}
      />
    </Card>
  );
}

export function AddedProviders({ providers, factories, loading, onOpen }: AddedProvidersProps) {
  const { t } = useTranslation();
  if (loading) return <Skeleton active paragraph={{ rows: 3 }} />;
  if (providers.length === 0) return <Empty description={t('models.noneAdded')} />;
  return (
    <Flex vertical gap={16}>
      {providers.map((p) => (
        <ProviderCard key={p.name} provider={p} factory={factories.get(p.name)} onOpen={onOpen} />
      ))}
    </Flex>
  );
}

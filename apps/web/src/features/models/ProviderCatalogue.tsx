import { useMemo, useState } from 'react';
import { Button, Card, Col, Empty, Flex, Input, Row, Segmented, Skeleton, Tag, Typography } from 'antd';
import { KeyOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { FactoryInfo, ModelType } from '@lectern/shared';
import { usesApiKeyDialog } from './form-fields';
import { filterFactories, typeFilterOptions } from './model-lists';
import type { DialogMode } from './ProviderDialog';
import { ProviderLogo } from './ProviderLogo';

/** "Models to be added": the provider catalogue with a search box and a model-type filter. */

export interface ProviderCatalogueProps {
  factories: FactoryInfo[];
  added: Set<string>;
  loading: boolean;
  onOpen: (factory: FactoryInfo, mode: DialogMode, type?: ModelType) => void;
}

const ALL = 'all';

function FactoryCard({
  factory,
  added,
  onOpen,
}: {
  factory: FactoryInfo;
  added: boolean;
  onOpen: () => void;
}) {
  const { t } = useTranslation();
  const keyDialog = usesApiKeyDialog(factory);
  return (
    <Card size="small" style={{ height: '100%' }} styles={{ body: { height: '100%' } }}>
      <Flex vertical gap={12} style={{ height: '100%' }}>
        <Flex gap={12} align="center">
          <ProviderLogo name={factory.name} logo={factory.logo} />
          <Flex vertical style={{ minWidth: 0 }}>
            <Typography.Text strong ellipsis={{ tooltip: factory.name }}>
              {factory.name}
            </Typography.Text>
            <span>
              {factory.local && <Tag color="geekblue">{t('models.local')}</Tag>}
              {added && <Tag color="green">{t('models.addedTag')}</Tag>}
            </span>
          </Flex>
        </Flex>
        <Flex wrap gap={4} style={{ flex: 1, alignContent: 'flex-start' }}>
          {factory.model_types.map((type) => (
            <Tag key={type} bordered={false}>
              {t(`models.types.${type}`)}
            </Tag>
          ))}
        </Flex>
        <Button
          block
          type={added ? 'default' : 'primary'}
          ghost={!added}
          icon={keyDialog ? <KeyOutlined /> : <PlusOutlined />}
          onClick={onOpen}
          aria-label={t(keyDialog ? 'models.setApiKeyFor' : 'models.addModelFor', { name: factory.name })}
        >
          {t(keyDialog ? 'models.setApiKey' : 'models.addModel')}
        </Button>
      </Flex>
    </Card>
  );
}

export function ProviderCatalogue({ factories, added, loading, onOpen }: ProviderCatalogueProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [type, setType] = useState<ModelType | typeof ALL>(ALL);
  const types = useMemo(() => typeFilterOptions(factories), [factories]);
  const shown = useMemo(
    () => filterFactories(factories, search, type === ALL ? null : type),
    [factories, search, type],
  );

  if (loading) return <Skeleton active paragraph={{ rows: 6 }} />;

  return (
    <Flex vertical gap={16}>
      <Flex wrap gap={12} align="center">
        <Input
          allowClear
          prefix={<SearchOutlined aria-hidden />}
          placeholder={t('models.search')}
          aria-label={t('models.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          style={{ maxWidth: 260 }}
        />
        <Segmented<ModelType | typeof ALL>
          aria-label={t('models.typeFilter')}
          value={type}
          onChange={setType}
          options={[
            { value: ALL, label: t('models.allTypes') },
            ...types.map((v) => ({ value: v, label: t(`models.types.${v}`) })),
          ]}
          style={{ maxWidth: '100%', overflowX: 'auto' }}
        />
      </Flex>
      {shown.length === 0 ? (
        <Empty description={t('models.noMatch')} />
      ) : (
        <Row gutter={[12, 12]} role="list" aria-label={t('models.toBeAdded')}>
          {shown.map((f) => (
            <Col key={f.name} xs={24} sm={12} lg={8} role="listitem" aria-label={f.name}>
              <FactoryCard
                factory={f}
                added={added.has(f.name)}
                onOpen={() =>
                  onOpen(f, usesApiKeyDialog(f) ? 'apiKey' : 'addModel', type === ALL ? undefined : type)
                }
              />
            </Col>
          ))}
        </Row>
      )}
    </Flex>
  );
}

import { useMemo, useState } from 'react';
import { Alert, Button, Divider, Flex, Typography } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { FactoryInfo, ModelType } from '@lectern/shared';
import { useFactories, useMyLlms } from '../../api/llm';
import { SectionHeading } from '../../components/SectionHeading';
import { AddedProviders } from './AddedProviders';
import { DefaultModelsDialog } from './DefaultModelsDialog';
import { addedProviders } from './model-lists';
import { ProviderCatalogue } from './ProviderCatalogue';
import { ProviderDialog, type DialogMode } from './ProviderDialog';

/** Settings → Model providers: added providers, the catalogue to add from, and the default models. */

type OpenDialog = { factory: FactoryInfo; mode: DialogMode; type?: ModelType } | null;

export default function ModelProvidersPage() {
  const { t } = useTranslation();
  const factories = useFactories();
  const my = useMyLlms();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [defaultsOpen, setDefaultsOpen] = useState(false);

  const byName = useMemo(() => new Map((factories.data ?? []).map((f) => [f.name, f])), [factories.data]);
  const added = useMemo(() => addedProviders(my.data, factories.data ?? []), [my.data, factories.data]);
  const addedNames = useMemo(() => new Set(added.map((p) => p.name)), [added]);
  const open = (factory: FactoryInfo, mode: DialogMode, type?: ModelType) =>
    setDialog({ factory, mode, type });

  const failed = factories.isError || my.isError;

  return (
    <>
      <Flex justify="space-between" align="flex-start" gap={16} wrap>
        <div style={{ flex: '1 1 320px' }}>
          <SectionHeading title={t('settings.model')} description={t('settings.modelDescription')} />
        </div>
        <Button icon={<SettingOutlined />} onClick={() => setDefaultsOpen(true)}>
          {t('models.defaultModels')}
        </Button>
      </Flex>

      {failed && (
        <Alert
          type="error"
          showIcon
          title={t('models.loadFailed')}
          action={
            <Button size="small" onClick={() => void Promise.all([factories.refetch(), my.refetch()])}>
              {t('models.retry')}
            </Button>
          }
          style={{ marginBottom: 16 }}
        />
      )}

      <section aria-labelledby="models-added">
        <Typography.Title level={3} id="models-added" style={{ fontSize: 16 }}>
          {t('models.added')}
        </Typography.Title>
        <AddedProviders
          providers={added}
          factories={byName}
          loading={my.isPending && !my.isError}
          onOpen={open}
        />
      </section>

      <Divider />

      <section aria-labelledby="models-to-add">
        <Typography.Title level={3} id="models-to-add" style={{ fontSize: 16 }}>
          {t('models.toBeAdded')}
        </Typography.Title>
        <ProviderCatalogue
          factories={factories.data ?? []}
          added={addedNames}
          loading={factories.isPending && !factories.isError}
          onOpen={open}
        />
      </section>

      {dialog && (
        <ProviderDialog
          key={`${dialog.factory.name}:${dialog.mode}`}
          factory={dialog.factory}
          mode={dialog.mode}
          modelType={dialog.type}
          onClose={() => setDialog(null)}
        />
      )}
      {defaultsOpen && <DefaultModelsDialog onClose={() => setDefaultsOpen(false)} />}
    </>
  );
}

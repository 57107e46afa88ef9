import { Drawer, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Dialog } from '@lectern/shared';
import { ApiDocs } from './ApiDocs';
import { ApiKeysSection } from './ApiKeysSection';
import { StatsSection } from './StatsSection';

/** An assistant's API panel: service endpoint and keys, documentation, statistics with an overview. */
export function ApiPanel({ dialog, onClose }: { dialog: Dialog | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer
      open={dialog !== null}
      onClose={onClose}
      title={t('chat.apiPanelTitle', { name: dialog?.name ?? '' })}
      size={820}
      destroyOnHidden
    >
      {dialog && (
        <Tabs
          items={[
            { key: 'stats', label: t('chat.statistics'), children: <StatsSection /> },
            { key: 'keys', label: t('chat.apiKeys'), children: <ApiKeysSection dialog={dialog} /> },
            { key: 'docs', label: t('chat.apiDocs'), children: <ApiDocs /> },
          ]}
        />
      )}
    </Drawer>
  );
}

import { ApartmentOutlined, FolderOpenOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/ComingSoon';

/** Tabs that later issues fill; each names what will be there. */

export function FilesTab() {
  const { t } = useTranslation();
  return (
    <ComingSoon
      icon={<FolderOpenOutlined />}
      title={t('knowledge.filesTitle')}
      description={t('knowledge.filesDescription')}
    />
  );
}

export function GraphTab() {
  const { t } = useTranslation();
  return (
    <ComingSoon
      icon={<ApartmentOutlined />}
      title={t('knowledge.graphTitle')}
      description={t('knowledge.graphDescription')}
    />
  );
}

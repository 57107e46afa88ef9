import { useTranslation } from 'react-i18next';
import { TeamOutlined } from '@ant-design/icons';
import { ComingSoon } from '../../components/ComingSoon';

export default function TeamPage() {
  const { t } = useTranslation();
  return (
    <ComingSoon
      title={t('settings.team')}
      description={t('settings.teamDescription')}
      icon={<TeamOutlined />}
      embedded
    />
  );
}

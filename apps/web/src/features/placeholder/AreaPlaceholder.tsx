import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/ComingSoon';
import { AREAS, type AreaKey } from '../../components/areas';

/** Areas that later releases build: the page names what will be there. */
export default function AreaPlaceholder({ area }: { area: AreaKey }) {
  const { t } = useTranslation();
  const icon = AREAS.find((a) => a.key === area)?.icon;
  return (
    <ComingSoon title={t(`areas.${area}Title`)} description={t(`areas.${area}Description`)} icon={icon} />
  );
}

import { Button, Dropdown } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, LANGUAGE_NAMES, type LanguageCode } from '@lectern/shared';
import { useSaveSetting } from '../api/user';
import { changeLanguage, currentLanguage, NATIVE_LANGUAGE_NAMES } from '../i18n';

/** The language switch. Signed in, the choice is also saved to the profile (as the server's name). */
export function LanguageMenu({ saveToProfile = false }: { saveToProfile?: boolean }) {
  const { t } = useTranslation();
  const save = useSaveSetting();
  const active = currentLanguage();

  const choose = async (lng: LanguageCode) => {
    await changeLanguage(lng);
    if (saveToProfile) save.mutate({ language: LANGUAGE_NAMES[lng] });
  };

  return (
    <Dropdown
      trigger={['click']}
      autoFocus
      menu={{
        selectable: true,
        selectedKeys: [active],
        items: LANGUAGES.map((lng) => ({
          key: lng,
          label: <span lang={lng}>{NATIVE_LANGUAGE_NAMES[lng]}</span>,
        })),
        onClick: ({ key }) => void choose(key as LanguageCode),
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} aria-label={t('nav.language')}>
        {NATIVE_LANGUAGE_NAMES[active]}
      </Button>
    </Dropdown>
  );
}

import { Avatar, Button, Dropdown } from 'antd';
import { LogoutOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '@lectern/shared';
import { feedback, navigation } from '../api/feedback';
import { logout } from '../api/user';
import { flashOnNextPage } from './flash';

/** Avatar and nickname; opens user settings and log out. */
export function UserMenu({ user }: { user: UserInfo | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const name = user?.nickname ?? '';

  const signOut = async () => {
    await logout();
    feedback.success(t('message.loggedOut'));
    flashOnNextPage('message.loggedOut');
    navigation.toLogin();
  };

  return (
    <Dropdown
      trigger={['click']}
      autoFocus
      menu={{
        items: [
          { key: 'settings', icon: <SettingOutlined />, label: t('nav.settings') },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, label: t('nav.logout'), danger: true },
        ],
        onClick: ({ key }) => {
          if (key === 'settings') navigate('/user-setting/profile');
          if (key === 'logout') void signOut();
        },
      }}
    >
      <Button
        type="text"
        aria-label={t('nav.userMenu', { name })}
        style={{ display: 'flex', alignItems: 'center', gap: 8 }}
      >
        <Avatar size="small" src={user?.avatar ?? undefined} icon={<UserOutlined />} alt="" />
        <span data-testid="header-nickname">{name}</span>
      </Button>
    </Dropdown>
  );
}

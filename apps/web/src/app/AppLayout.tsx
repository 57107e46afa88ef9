import { useEffect } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { Layout, Menu, theme } from 'antd';
import { AppstoreOutlined, HomeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '@lectern/shared';
import { useUserInfo } from '../api/user';
import { LanguageMenu } from '../components/LanguageMenu';
import { UserMenu } from '../components/UserMenu';
import { AREAS } from '../components/areas';
import { applyProfilePreferences } from '../lib/preferences';

const NAV = [
  { key: '/', icon: <HomeOutlined />, label: 'nav.home' },
  ...AREAS.map((a) => ({ key: a.path, icon: a.icon, label: `nav.${a.key}` })),
];

let appliedForUser: string | null = null;

function useProfilePreferences(user: UserInfo | undefined, fresh: boolean) {
  useEffect(() => {
    if (!user || !fresh || appliedForUser === user.id) return;
    appliedForUser = user.id;
    void applyProfilePreferences(user);
  }, [user, fresh]);
}

function selectedKey(pathname: string): string {
  const hit = NAV.find((n) => n.key !== '/' && (pathname === n.key || pathname.startsWith(`${n.key}/`)));
  return hit ? hit.key : pathname === '/' ? '/' : '';
}

export function AppLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { token } = theme.useToken();
  const userQuery = useUserInfo();
  useProfilePreferences(userQuery.data, userQuery.isSuccess && !userQuery.isPlaceholderData);

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <a className="skip-link" href="#main" style={{ background: token.colorBgElevated }}>
        {t('common.skipToContent')}
      </a>
      <Layout.Header
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 16,
          paddingInline: 24,
          background: token.colorBgContainer,
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        <Link
          to="/"
          style={{ display: 'flex', alignItems: 'center', gap: 8, color: token.colorText, fontWeight: 600 }}
        >
          <AppstoreOutlined style={{ color: token.colorPrimary, fontSize: 20 }} aria-hidden />
          <span style={{ fontSize: 18 }}>{t('common.appName')}</span>
        </Link>
        <nav aria-label={t('nav.mainNavigation')} style={{ flex: 1, minWidth: 0 }}>
          <Menu
            mode="horizontal"
            selectedKeys={[selectedKey(pathname)]}
            style={{ borderBottom: 'none', background: 'transparent' }}
            items={NAV.map((n) => ({
              key: n.key,
              icon: n.icon,
              label: (
                <NavLink to={n.key} end={n.key === '/'}>
                  {t(n.label)}
                </NavLink>
              ),
            }))}
          />
        </nav>
        <LanguageMenu saveToProfile />
        <UserMenu user={userQuery.data} />
      </Layout.Header>
      <Layout.Content id="main" tabIndex={-1} style={{ padding: 24, outline: 'none' }}>
        <Outlet />
      </Layout.Content>
    </Layout>
  );
}

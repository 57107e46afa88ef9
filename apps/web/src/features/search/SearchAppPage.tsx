import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Button, Result, Spin } from 'antd';
import { ArrowLeftOutlined, SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { appSearchCalls, useSearchApp } from '../../api/search';
import { useUserInfo } from '../../api/user';
import { panelsOf } from './search-state';
import { SearchRunner } from './SearchRunner';
import { SearchSettingsDrawer } from './SearchSettingsDrawer';

/** `/search/:searchId`: one search app's page; every search runs with the app's configuration. */
export default function SearchAppPage() {
  const { t } = useTranslation();
  const { searchId = '' } = useParams();
  const app = useSearchApp(searchId);
  const { data: user } = useUserInfo();
  const [editing, setEditing] = useState(false);
  const calls = useMemo(() => appSearchCalls(searchId), [searchId]);

  if (app.isPending) {
    return (
      <div style={{ display: 'flex', justifyContent: 'center', padding: 64 }}>
        <Spin />
      </div>
    );
  }
  if (!app.data) {
    return (
      <Result
        status="warning"
        title={t('search.apps.unavailable')}
        subTitle={app.error?.message}
        extra={<Link to="/search">{t('search.apps.back')}</Link>}
      />
    );
  }
  const toolbar = (
    <>
      <Link to="/search" aria-label={t('search.apps.back')}>
        <ArrowLeftOutlined /> {t('search.apps.back')}
      </Link>
      {user?.id === app.data.created_by && (
        <Button icon={<SettingOutlined />} onClick={() => setEditing(true)}>
          {t('search.apps.settings')}
        </Button>
      )}
    </>
  );
  return (
    <>
      <SearchRunner
        key={app.data.update_time}
        title={app.data.name}
        calls={calls}
        panels={panelsOf(app.data.search_config)}
        toolbar={toolbar}
      />
      <SearchSettingsDrawer app={editing ? app.data : null} onClose={() => setEditing(false)} />
    </>
  );
}

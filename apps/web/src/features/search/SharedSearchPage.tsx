import { useEffect, useMemo, useState } from 'react';
import { Result, Spin } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { SearchApp } from '@lectern/shared';
import { fetchSharedSearch, sharedSearchCalls } from '../../api/search';
import { changeLanguage, isLanguageCode } from '../../i18n';
import { panelsOf } from './search-state';
import { SearchRunner } from './SearchRunner';

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; app: SearchApp };

/**
 * The public page of a search app (`/search/share?shared_id=<search_id>&auth=<beta>`): no session;
 * the app and every search go through `/api/v1/searchbots/*` with the link's beta token.
 */
export default function SharedSearchPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const searchId = params.get('shared_id') ?? '';
  const auth = params.get('auth') ?? '';
  const locale = params.get('locale');
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const calls = useMemo(() => sharedSearchCalls(searchId, auth), [searchId, auth]);

  useEffect(() => {
    if (locale && isLanguageCode(locale)) void changeLanguage(locale);
  }, [locale]);

  useEffect(() => {
    if (!searchId || !auth) return;
    let alive = true;
    void fetchSharedSearch(searchId, auth).then((r) => {
      if (!alive) return;
      setLoad(
        r.code === 0 && r.data ? { state: 'ready', app: r.data } : { state: 'error', message: r.message },
      );
    });
    return () => {
      alive = false;
    };
  }, [searchId, auth]);

  if (!searchId || !auth) {
    return (
      <Result status="warning" title={t('search.apps.badLink')} subTitle={t('search.apps.badLinkHint')} />
    );
  }
  if (load.state === 'loading') {
    return (
      <div style={{ display: 'flex', justifyContent: 'center', padding: 64 }}>
        <Spin />
      </div>
    );
  }
  if (load.state === 'error')
    return <Result status="error" title={t('search.apps.unavailable')} subTitle={load.message} />;
  return (
    <main style={{ padding: 24, minHeight: '100vh' }}>
      <SearchRunner title={load.app.name} calls={calls} panels={panelsOf(load.app.search_config)} />
    </main>
  );
}

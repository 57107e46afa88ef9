import { useState } from 'react';
import { Link } from 'react-router';
import { Button, Card, Col, Empty, Input, Popconfirm, Row, Spin, Typography } from 'antd';
import {
  DeleteOutlined,
  EditOutlined,
  PlusOutlined,
  SearchOutlined,
  SettingOutlined,
  ShareAltOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { SearchApp, SearchAppListItem } from '@lectern/shared';
import { feedback } from '../../api/feedback';
import { alreadyShown, type ApiResult } from '../../api/request';
import {
  fetchSearchApp,
  useCreateSearchApp,
  useRemoveSearchApp,
  useSearchApps,
  useUpdateSearchApp,
} from '../../api/search';
import { useUserInfo } from '../../api/user';
import { NameDialog, ShareDialog } from './SearchAppDialogs';
import { SearchSettingsDrawer } from './SearchSettingsDrawer';

/** `/search`: the search apps of the user's teams — create, rename, configure, share, delete, open. */
export default function SearchPage() {
  const { t } = useTranslation();
  const [keywords, setKeywords] = useState('');
  const list = useSearchApps();
  const create = useCreateSearchApp();
  const update = useUpdateSearchApp();
  const remove = useRemoveSearchApp();
  const { data: user } = useUserInfo();
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<SearchAppListItem | null>(null);
  const [settings, setSettings] = useState<SearchApp | null>(null);
  const [sharing, setSharing] = useState<string | null>(null);
  const apps = (list.data?.search_apps ?? []).filter((a) =>
    a.name.toLowerCase().includes(keywords.toLowerCase()),
  );

  const report = (r: ApiResult<unknown>) => {
    if (r.code !== 0 && !alreadyShown(r)) feedback.error(r.message);
    return r.code === 0;
  };
  const openSettings = async (id: string) => {
    const r = await fetchSearchApp(id);
    if (report(r) && r.data) setSettings(r.data);
  };

  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 16, marginBottom: 24 }}>
        <div style={{ flex: 1, minWidth: 240 }}>
          <Typography.Title level={1} style={{ fontSize: 24, margin: 0 }}>
            {t('search.apps.title')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('search.apps.subtitle')}</Typography.Text>
        </div>
        <Input.Search
          allowClear
          placeholder={t('search.apps.filter')}
          aria-label={t('search.apps.filter')}
          onSearch={(v) => setKeywords(v.trim())}
          onChange={(e) => setKeywords(e.target.value.trim())}
          style={{ width: 260 }}
        />
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setCreating(true)}
          data-testid="create-search-app"
        >
          {t('search.apps.create')}
        </Button>
      </div>
      {list.isPending ? (
        <div style={{ display: 'flex', justifyContent: 'center', padding: 64 }}>
          <Spin />
        </div>
      ) : apps.length === 0 ? (
        <Empty
          image={<SearchOutlined style={{ fontSize: 56, opacity: 0.4 }} />}
          description={keywords ? t('search.apps.noMatch', { keywords }) : t('search.apps.empty')}
        />
      ) : (
        <Row gutter={[16, 16]} role="list" aria-label={t('search.apps.title')}>
          {apps.map((a) => {
            const mine = user?.id === a.created_by;
            return (
              <Col key={a.id} xs={24} sm={12} lg={8} xl={6} role="listitem">
                <Card
                  size="small"
                  actions={
                    mine
                      ? [
                          <EditOutlined
                            key="rename"
                            aria-label={t('search.apps.rename')}
                            onClick={() => setRenaming(a)}
                          />,
                          <SettingOutlined
                            key="settings"
                            aria-label={t('search.apps.settings')}
                            onClick={() => void openSettings(a.id)}
                          />,
                          <ShareAltOutlined
                            key="share"
                            aria-label={t('search.apps.share')}
                            onClick={() => setSharing(a.id)}
                          />,
                          <Popconfirm
                            key="rm"
                            title={t('search.apps.deleteConfirm', { name: a.name })}
                            okText={t('common.delete')}
                            cancelText={t('common.cancel')}
                            onConfirm={async () => void report(await remove.mutateAsync(a.id))}
                          >
                            <DeleteOutlined aria-label={t('common.delete')} />
                          </Popconfirm>,
                        ]
                      : undefined
                  }
                >
                  <Link to={`/search/${a.id}`} data-testid={`search-app-${a.name}`}>
                    <Card.Meta
                      avatar={<SearchOutlined style={{ fontSize: 24 }} aria-hidden />}
                      title={a.name}
                      description={
                        <>
                          <Typography.Paragraph
                            type="secondary"
                            ellipsis={{ rows: 2 }}
                            style={{ marginBottom: 4 }}
                          >
                            {a.description || t('search.apps.noDescription')}
                          </Typography.Paragraph>
                          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                            {t('search.apps.updated', {
                              time: dayjs(a.update_time).format('YYYY-MM-DD HH:mm'),
                              owner: a.nickname,
                            })}
                          </Typography.Text>
                        </>
                      }
                    />
                  </Link>
                </Card>
              </Col>
            );
          })}
        </Row>
      )}
      <NameDialog
        open={creating}
        title={t('search.apps.create')}
        initial=""
        withDescription
        busy={create.isPending}
        onSubmit={async (v) => report(await create.mutateAsync(v))}
        onClose={() => setCreating(false)}
      />
      <NameDialog
        open={renaming !== null}
        title={t('search.apps.rename')}
        initial={renaming?.name ?? ''}
        busy={update.isPending}
        onSubmit={async (v) =>
          renaming
            ? report(
                await update.mutateAsync({
                  search_id: renaming.id,
                  tenant_id: renaming.tenant_id,
                  name: v.name,
                  search_config: {},
                }),
              )
            : false
        }
        onClose={() => setRenaming(null)}
      />
      <SearchSettingsDrawer app={settings} onClose={() => setSettings(null)} />
      <ShareDialog searchId={sharing} onClose={() => setSharing(null)} />
    </div>
  );
}

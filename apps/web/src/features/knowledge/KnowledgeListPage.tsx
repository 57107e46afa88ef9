import { useEffect, useRef, useState } from 'react';
import { Button, Col, Divider, Empty, Input, Row, Spin, Typography } from 'antd';
import { DatabaseOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useKbInfiniteList } from '../../api/kb';
import { useUserInfo } from '../../api/user';
import { CreateKbDialog } from './list/CreateKbDialog';
import { KbCard } from './list/KbCard';

/** Knowledge bases: search, create, cards loaded page by page while scrolling, ending in 'no more data'. */
export default function KnowledgeListPage() {
  const { t } = useTranslation();
  const [keywords, setKeywords] = useState('');
  const [creating, setCreating] = useState(false);
  const { data: user } = useUserInfo();
  const list = useKbInfiniteList(keywords);
  const sentinel = useRef<HTMLDivElement>(null);
  const kbs = list.data?.pages.flatMap((p) => p.kbs) ?? [];
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  // Infinite scroll: the next page loads when the end marker comes into view.
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasNextPage) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 16, marginBottom: 24 }}>
        <div style={{ flex: 1, minWidth: 240 }}>
          <Typography.Title level={1} style={{ fontSize: 24, margin: 0 }}>
            {t('knowledge.listTitle', { name: user?.nickname ?? '' })}
          </Typography.Title>
          <Typography.Text type="secondary">{t('knowledge.listSubtitle')}</Typography.Text>
        </div>
        <Input.Search
          allowClear
          placeholder={t('knowledge.searchPlaceholder')}
          aria-label={t('knowledge.searchPlaceholder')}
          onSearch={(value) => setKeywords(value.trim())}
          onChange={(e) => e.target.value === '' && setKeywords('')}
          style={{ width: 280 }}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          {t('knowledge.createKb')}
        </Button>
      </div>

      {list.isPending ? (
        <div style={{ display: 'flex', justifyContent: 'center', padding: 64 }}>
          <Spin />
        </div>
      ) : kbs.length === 0 ? (
        <Empty
          image={<DatabaseOutlined style={{ fontSize: 56, opacity: 0.4 }} />}
          description={keywords ? t('knowledge.noMatch', { keywords }) : t('knowledge.emptyList')}
        >
          {!keywords && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              {t('knowledge.createKb')}
            </Button>
          )}
        </Empty>
      ) : (
        <>
          <Row gutter={[16, 16]} role="list" aria-label={t('knowledge.listAria')}>
            {kbs.map((kb) => (
              <Col key={kb.id} xs={24} sm={12} lg={8} xl={6} role="listitem">
                <KbCard kb={kb} canDelete={user?.id === kb.tenant_id} />
              </Col>
            ))}
          </Row>
          <div ref={sentinel} style={{ minHeight: 1 }} />
          {list.hasNextPage || list.isFetchingNextPage ? (
            <div style={{ display: 'flex', justifyContent: 'center', padding: 24 }}>
              <Spin />
            </div>
          ) : (
            <Divider plain>{t('knowledge.noMoreData')}</Divider>
          )}
        </>
      )}
      <CreateKbDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}

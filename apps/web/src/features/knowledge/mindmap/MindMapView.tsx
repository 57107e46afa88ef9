import type { ReactNode } from 'react';
import { Card, Empty, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { MindMapCard, type TreeItem } from '../../search';

/**
 * The KB's mind map (`run_mindmap`, API.md §19.10) as the search page draws one (its tree card),
 * with the mind-map job row above it; an empty state until a mind-map job has produced a map.
 */
export function MindMapView({
  tree,
  loading,
  error,
  job,
}: {
  tree: TreeItem[];
  loading: boolean;
  error: string | null;
  /** The mind-map job row (start, progress, log, cancel). */
  job: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div data-testid="kb-mind-map">
      <Card size="small" title={t('knowledge.mindMap.jobTitle')} style={{ marginBottom: 12 }}>
        {job}
      </Card>
      {loading ? (
        <Skeleton active paragraph={{ rows: 4 }} title={false} />
      ) : error ? (
        <Empty description={error} />
      ) : tree.length === 0 ? (
        <Empty description={t('knowledge.mindMap.empty')}>{t('knowledge.mindMap.emptyHint')}</Empty>
      ) : (
        <MindMapCard tree={tree} loading={false} error={null} />
      )}
    </div>
  );
}

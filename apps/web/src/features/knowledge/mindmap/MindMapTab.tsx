import { useCallback, useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MindMapNode } from '@lectern/shared';
import { graphKeys, useKbGraph } from '../../../api/graph';
import { mindMapTree } from '../../search';
import { JobRow } from '../graph/JobPanel';
import { MindMapView } from './MindMapView';

/** The "Mind map" tab of a knowledge base: its stored mind map and the job that builds it. */
export default function MindMapTab({ kbId }: { kbId: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const query = useKbGraph(kbId);
  const mindMap = query.data?.mind_map;
  const tree = useMemo(
    () => (mindMap && 'id' in mindMap ? mindMapTree(mindMap as MindMapNode) : []),
    [mindMap],
  );
  const reload = useCallback(() => {
    void client.invalidateQueries({ queryKey: graphKeys.graph(kbId) });
  }, [client, kbId]);
  return (
    <MindMapView
      tree={tree}
      loading={query.isPending}
      error={query.isError ? t('knowledge.mindMap.loadFailed') : null}
      job={<JobRow kbId={kbId} kind="mindmap" onDone={reload} />}
    />
  );
}

import { useCallback, useMemo, useState } from 'react';
import { AutoComplete, Button, Empty, Input, Modal, Result, Space, Spin, Tag, Typography } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { alreadyShown } from '../../../api/request';
import { feedback } from '../../../api/feedback';
import { graphKeys, useDeleteKbGraph, useKbGraph } from '../../../api/graph';
import { buildGraph, communityLegend, searchEntities } from './graph-data';
import { GraphCanvas } from './GraphCanvas';
import { EntityPanel } from './EntityPanel';
import { ChunkModal } from './ChunkModal';
import { JobPanel } from './JobPanel';

/**
 * The knowledge graph tab (SPEC §2): the KB's jobs with live progress, then its whole graph drawn
 * with WebGL — search an entity to focus it, read its description, relations and source chunks,
 * delete the graph. An empty state until a graph job has produced one.
 */
export default function GraphTab({ kbId }: { kbId: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const query = useKbGraph(kbId);
  const remove = useDeleteKbGraph(kbId);
  const [modal, holder] = Modal.useModal();
  const [selected, setSelected] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [chunkId, setChunkId] = useState<string | null>(null);

  const graph = useMemo(() => buildGraph(query.data?.graph ?? {}), [query.data]);
  const matches = useMemo(() => searchEntities(graph, search), [graph, search]);
  const legend = useMemo(() => communityLegend(graph), [graph]);
  const reload = useCallback(() => {
    setSelected(null);
    void client.invalidateQueries({ queryKey: graphKeys.graph(kbId) });
  }, [client, kbId]);

  const confirmDelete = () => {
    void modal.confirm({
      title: t('knowledge.graph.deleteTitle'),
      content: t('knowledge.graph.deleteConfirm'),
      okText: t('common.delete'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        const result = await remove.mutateAsync();
        if (result.code === 0) {
          setSelected(null);
          feedback.success(t('message.deleted'));
        } else if (!alreadyShown(result)) feedback.error(result.message);
      },
    });
  };

  const pick = (id: string) => {
    setSelected(id);
    setSearch(graph.getNodeAttribute(id, 'label'));
  };

  let body: React.ReactNode;
  if (query.isPending) {
    body = (
      <div style={{ display: 'flex', justifyContent: 'center', padding: 48 }}>
        <Spin />
      </div>
    );
  } else if (query.isError) {
    body = <Result status="warning" title={t('knowledge.graph.loadFailed')} subTitle={query.error.message} />;
  } else if (graph.order === 0) {
    body = (
      <Empty
        style={{ padding: 48 }}
        description={
          <Space orientation="vertical" size={4}>
            <Typography.Text strong>{t('knowledge.graph.emptyTitle')}</Typography.Text>
            <Typography.Text type="secondary">{t('knowledge.graph.emptyHint')}</Typography.Text>
          </Space>
        }
      />
    );
  } else {
    body = (
      <>
        <Space wrap style={{ marginBottom: 8, width: '100%', justifyContent: 'space-between' }}>
          <Space wrap>
            <AutoComplete
              value={search}
              onChange={setSearch}
              onSelect={(id: string) => pick(id)}
              options={matches.map((m) => ({
                value: m.id,
                label: (
                  <span>
                    {m.label}{' '}
                    {m.entityType && <Typography.Text type="secondary">· {m.entityType}</Typography.Text>}
                  </span>
                ),
              }))}
              notFoundContent={search.trim() ? t('knowledge.graph.noMatch', { query: search.trim() }) : null}
              style={{ width: 320 }}
            >
              <Input.Search
                aria-label={t('knowledge.graph.search')}
                placeholder={t('knowledge.graph.search')}
                allowClear
                onSearch={(q) => {
                  const first = searchEntities(graph, q, 1)[0];
                  if (first) pick(first.id);
                }}
              />
            </AutoComplete>
            <Typography.Text type="secondary">
              {t('knowledge.graph.counts', { nodes: graph.order, edges: graph.size })}
            </Typography.Text>
          </Space>
          <Button danger icon={<DeleteOutlined />} onClick={confirmDelete}>
            {t('knowledge.graph.delete')}
          </Button>
        </Space>
        <div style={{ display: 'flex', gap: 12, alignItems: 'stretch' }}>
          <div
            style={{
              flex: 1,
              minWidth: 0,
              height: 600,
              border: '1px solid var(--ant-color-border-secondary)',
              borderRadius: 8,
              overflow: 'hidden',
              position: 'relative',
            }}
          >
            <GraphCanvas
              graph={graph}
              selected={selected}
              onSelect={setSelected}
              label={t('knowledge.graph.canvas', { nodes: graph.order, edges: graph.size })}
            />
            {legend.length > 1 && (
              <div style={{ position: 'absolute', left: 8, bottom: 8, maxWidth: '70%' }}>
                <Space wrap size={2} aria-label={t('knowledge.graph.legend')}>
                  {legend.map((c) => (
                    <Tag key={c.community} color={c.color} style={{ marginInlineEnd: 0 }}>
                      {t('knowledge.graph.communityCount', { n: c.community + 1, count: c.count })}
                    </Tag>
                  ))}
                </Space>
              </div>
            )}
          </div>
          {selected && (
            <div style={{ width: 360, flex: 'none' }}>
              <EntityPanel graph={graph} node={selected} onSelect={setSelected} onOpenChunk={setChunkId} />
            </div>
          )}
        </div>
      </>
    );
  }

  return (
    <div>
      {holder}
      <JobPanel kbId={kbId} onGraphDone={reload} />
      {body}
      <ChunkModal kbId={kbId} chunkId={chunkId} onClose={() => setChunkId(null)} />
    </div>
  );
}

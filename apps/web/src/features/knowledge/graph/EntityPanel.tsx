import { Button, Card, Empty, Space, Tag, Typography } from 'antd';
import { CloseOutlined, FileTextOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { relationsOf, type KnowledgeGraph } from './graph-data';

/** The selected entity: type, community, description, its relations and the chunks it came from. */
export function EntityPanel({
  graph,
  node,
  onSelect,
  onOpenChunk,
}: {
  graph: KnowledgeGraph;
  node: string;
  onSelect: (node: string | null) => void;
  onOpenChunk: (chunkId: string) => void;
}) {
  const { t } = useTranslation();
  if (!graph.hasNode(node)) return null;
  const a = graph.getNodeAttributes(node);
  const relations = relationsOf(graph, node);
  return (
    <Card
      size="small"
      role="region"
      aria-label={t('knowledge.graph.entityPanel', { name: a.label })}
      title={
        <Typography.Text strong style={{ whiteSpace: 'normal' }}>
          {a.label}
        </Typography.Text>
      }
      extra={
        <Button
          type="text"
          size="small"
          icon={<CloseOutlined />}
          aria-label={t('knowledge.graph.closePanel')}
          onClick={() => onSelect(null)}
        />
      }
      styles={{ body: { maxHeight: 560, overflow: 'auto' } }}
    >
      <Space wrap size={4} style={{ marginBottom: 8 }}>
        {a.entityType && <Tag>{a.entityType}</Tag>}
        <Tag color={a.color}>{t('knowledge.graph.community', { n: a.community + 1 })}</Tag>
        <Typography.Text type="secondary">
          {t('knowledge.graph.pagerank', { value: a.pagerank.toFixed(4) })}
        </Typography.Text>
      </Space>
      <Typography.Title level={5} style={{ fontSize: 13 }}>
        {t('knowledge.graph.description')}
      </Typography.Title>
      <Typography.Paragraph data-testid="graph-entity-description" style={{ whiteSpace: 'pre-wrap' }}>
        {a.description || t('knowledge.graph.noDescription')}
      </Typography.Paragraph>

      <Typography.Title level={5} style={{ fontSize: 13 }}>
        {t('knowledge.graph.relations', { count: relations.length })}
      </Typography.Title>
      {relations.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('knowledge.graph.noRelations')} />
      ) : (
        <ul
          aria-label={t('knowledge.graph.relationsOf', { name: a.label })}
          style={{ listStyle: 'none', margin: 0, padding: 0 }}
        >
          {relations.slice(0, 100).map((r) => (
            <li key={r.other} style={{ padding: '4px 0', borderBottom: '1px solid var(--ant-color-split)' }}>
              <Button type="link" size="small" style={{ paddingInline: 0 }} onClick={() => onSelect(r.other)}>
                {graph.getNodeAttribute(r.other, 'label')}
              </Button>
              <Typography.Text type="secondary">
                {' '}
                · {t('knowledge.graph.weight', { value: r.weight })}
              </Typography.Text>
              {r.description && (
                <Typography.Paragraph
                  style={{ margin: 0, fontSize: 12 }}
                  ellipsis={{ rows: 3, expandable: true }}
                >
                  {r.description}
                </Typography.Paragraph>
              )}
            </li>
          ))}
        </ul>
      )}

      <Typography.Title level={5} style={{ fontSize: 13, marginTop: 12 }}>
        {t('knowledge.graph.sources', { count: a.sourceIds.length })}
      </Typography.Title>
      <Space orientation="vertical" size={2}>
        {a.sourceIds.map((id, i) => (
          <Button key={id} size="small" icon={<FileTextOutlined />} onClick={() => onOpenChunk(id)}>
            {t('knowledge.graph.sourceChunk', { n: i + 1 })}
          </Button>
        ))}
      </Space>
    </Card>
  );
}

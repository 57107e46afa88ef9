import { Button, Card, Checkbox, Flex, Popconfirm, Space, Switch, Tag, Typography } from 'antd';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ChunkRow } from '@lectern/shared';
import { sanitizeHtml } from './safe-html';
import './chunk-text.css';

export interface ChunkCardProps {
  chunk: ChunkRow;
  index: number;
  checked: boolean;
  active: boolean;
  onCheck: (checked: boolean) => void;
  onSelect: () => void;
  onEdit: () => void;
  onToggle: (enabled: boolean) => void;
  onRemove: () => void;
}

/** One chunk of the list: select box, text (with search highlights), keywords, questions, switch, actions. */
export function ChunkCard({
  chunk,
  index,
  checked,
  active,
  onCheck,
  onSelect,
  onEdit,
  onToggle,
  onRemove,
}: ChunkCardProps) {
  const { t } = useTranslation();
  const enabled = chunk.available_int !== 0;
  const label = t('chunks.chunkLabel', { n: index });
  return (
    <Card
      size="small"
      data-testid="chunk-card"
      data-chunk-id={chunk.chunk_id}
      data-enabled={enabled ? '1' : '0'}
      aria-label={label}
      role="article"
      onClick={onSelect}
      style={{
        marginBottom: 8,
        cursor: 'pointer',
        borderColor: active ? '#fa8c16' : undefined,
        opacity: enabled ? 1 : 0.6,
      }}
    >
      <Flex gap={10} align="start">
        <Checkbox
          checked={checked}
          aria-label={t('chunks.selectChunk', { n: index })}
          onClick={(e) => e.stopPropagation()}
          onChange={(e) => onCheck(e.target.checked)}
        />
        <div style={{ flex: 1, minWidth: 0 }}>
          {chunk.image_id && (
            <img
              src={`/v1/document/image/${chunk.image_id}`}
              alt=""
              style={{ maxWidth: 160, maxHeight: 120, float: 'right', marginLeft: 8 }}
            />
          )}
          <div
            data-testid="chunk-content"
            className="lectern-chunk-text"
            style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: 220, overflow: 'auto' }}
            dangerouslySetInnerHTML={{ __html: sanitizeHtml(chunk.content_with_weight) }}
          />
          {chunk.important_kwd.length > 0 && (
            <div style={{ marginTop: 6 }}>
              <Typography.Text type="secondary">{t('chunks.keywords')}: </Typography.Text>
              {chunk.important_kwd.map((k) => (
                <Tag key={k} color="blue">
                  {k}
                </Tag>
              ))}
            </div>
          )}
          {chunk.question_kwd.length > 0 && (
            <div style={{ marginTop: 6 }}>
              <Typography.Text type="secondary">{t('chunks.questions')}: </Typography.Text>
              {chunk.question_kwd.map((q) => (
                <Tag key={q}>{q}</Tag>
              ))}
            </div>
          )}
          {(chunk.tag_kwd.length > 0 || Object.keys(chunk.tag_feas ?? {}).length > 0) && (
            <div style={{ marginTop: 6 }}>
              <Typography.Text type="secondary">{t('chunks.tags')}: </Typography.Text>
              {chunk.tag_kwd.map((k) => (
                <Tag key={`k-${k}`} color="purple">
                  {k}
                </Tag>
              ))}
              {Object.entries(chunk.tag_feas ?? {}).map(([k, v]) => (
                <Tag key={`f-${k}`} color="purple">
                  {k} · {v}
                </Tag>
              ))}
            </div>
          )}
        </div>
        <Space orientation="vertical" align="center" onClick={(e) => e.stopPropagation()}>
          <Switch
            size="small"
            checked={enabled}
            aria-label={t('chunks.enableChunk', { n: index })}
            onChange={onToggle}
          />
          <Button
            size="small"
            type="text"
            icon={<EditOutlined />}
            aria-label={t('chunks.editChunk', { n: index })}
            onClick={onEdit}
          />
          <Popconfirm
            title={t('chunks.removeOneConfirm')}
            okText={t('common.delete')}
            cancelText={t('common.cancel')}
            onConfirm={onRemove}
          >
            <Button
              size="small"
              type="text"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('chunks.removeChunk', { n: index })}
            />
          </Popconfirm>
        </Space>
      </Flex>
    </Card>
  );
}

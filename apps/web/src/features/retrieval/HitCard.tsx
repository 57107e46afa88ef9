import { Card, Space, Tag, Typography } from 'antd';
import { FileTextOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { RetrievalHit } from '@lectern/shared';
import { chunksPath, sanitizeHtml } from '../chunks';

/** A similarity as the percentage people read (two decimals). */
export function percent(value: number): string {
  return `${(Number.isFinite(value) ? value * 100 : 0).toFixed(2)}%`;
}

/** One retrieval hit: its hybrid, term and vector similarity, highlighted content and document. */
export function HitCard({ hit, kbId }: { hit: RetrievalHit; kbId: string }) {
  const { t } = useTranslation();
  return (
    <Card size="small" style={{ marginBottom: 8 }} data-testid="retrieval-hit" data-chunk-id={hit.chunk_id}>
      <Space wrap size={4} style={{ marginBottom: 8 }}>
        <Tag color="orange" data-testid="hybrid-similarity">
          {t('retrieval.hybrid')} {percent(hit.similarity)}
        </Tag>
        <Tag color="blue" data-testid="term-similarity">
          {t('retrieval.term')} {percent(hit.term_similarity)}
        </Tag>
        <Tag color="green" data-testid="vector-similarity">
          {t('retrieval.vector')} {percent(hit.vector_similarity)}
        </Tag>
      </Space>
      {hit.image_id && (
        <img
          src={`/v1/document/image/${hit.image_id}`}
          alt=""
          style={{ maxWidth: 160, maxHeight: 120, float: 'right', marginLeft: 8 }}
        />
      )}
      <div
        data-testid="hit-content"
        className="lectern-chunk-text"
        style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
        dangerouslySetInnerHTML={{ __html: sanitizeHtml(hit.highlight ?? hit.content_with_weight) }}
      />
      <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>
        <FileTextOutlined /> <Link to={chunksPath(kbId, hit.doc_id)}>{hit.docnm_kwd}</Link>
      </Typography.Text>
    </Card>
  );
}

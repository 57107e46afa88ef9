import { Modal, Skeleton, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useChunk } from '../../../api/chunk';

/** A source chunk of an entity: its document and text, with a link to the document's chunks. */
export function ChunkModal({
  kbId,
  chunkId,
  onClose,
}: {
  kbId: string;
  chunkId: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const chunk = useChunk(chunkId ?? undefined);
  const data = chunk.data;
  return (
    <Modal
      open={chunkId !== null}
      title={t('knowledge.graph.chunkTitle')}
      onCancel={onClose}
      footer={null}
      width={640}
      destroyOnHidden
    >
      {chunk.isPending ? (
        <Skeleton active />
      ) : chunk.isError || !data ? (
        <Typography.Text type="danger">{t('knowledge.graph.chunkMissing')}</Typography.Text>
      ) : (
        <>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
            {t('knowledge.graph.chunkDocument', { name: data.docnm_kwd })}{' '}
            <Link to={`/knowledge/${kbId}/dataset/${data.doc_id}/chunks`}>
              {t('knowledge.graph.openDocument')}
            </Link>
          </Typography.Paragraph>
          <Typography.Paragraph
            data-testid="graph-chunk-content"
            style={{ whiteSpace: 'pre-wrap', maxHeight: 420, overflow: 'auto' }}
          >
            {data.content_with_weight}
          </Typography.Paragraph>
        </>
      )}
    </Modal>
  );
}

import { Button, Popover, Typography, theme } from 'antd';
import { FileTextOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ReferenceChunk } from '@lectern/shared';
import { useDocumentOpener } from './document-context';

/** The chunk a citation points to: its text, its picture if any, and its document (click opens it). */
export function ChunkCard({ chunk }: { chunk: ReferenceChunk }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const open = useDocumentOpener();
  return (
    <div
      style={{ maxWidth: 420, display: 'flex', flexDirection: 'column', gap: 8 }}
      data-testid="citation-chunk"
    >
      {chunk.image_id && (
        <img
          src={`/v1/document/image/${encodeURIComponent(chunk.image_id)}`}
          alt={t('chat.chunkImage')}
          style={{ maxWidth: '100%', maxHeight: 160, objectFit: 'contain', borderRadius: 4 }}
        />
      )}
      <div
        style={{
          maxHeight: 240,
          overflow: 'auto',
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-word',
          fontSize: 13,
          background: token.colorFillQuaternary,
          padding: 8,
          borderRadius: 6,
        }}
      >
        {chunk.content}
      </div>
      <div style={{ display: 'flex', alignItems: 'center', gap: 6, minWidth: 0 }}>
        <FileTextOutlined aria-hidden />
        {open && chunk.document_id ? (
          <Button
            type="link"
            size="small"
            style={{ padding: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'left' }}
            onClick={() => open({ id: chunk.document_id, name: chunk.document_name })}
          >
            {chunk.document_name || chunk.document_id}
          </Button>
        ) : (
          <Typography.Text>{chunk.document_name}</Typography.Text>
        )}
      </div>
    </div>
  );
}

/** `[ID:n]` as a small numbered badge; its popover shows the cited chunk. */
export function CitationBadge({ index, chunk }: { index: number; chunk: ReferenceChunk | undefined }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const badge = (
    <button
      type="button"
      className="citation-badge"
      aria-label={t('chat.citation', { n: index + 1 })}
      data-cite={index}
      style={{
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        minWidth: 18,
        height: 18,
        padding: '0 5px',
        margin: '0 2px',
        border: 'none',
        borderRadius: 9,
        fontSize: 11,
        lineHeight: 1,
        verticalAlign: 'super',
        cursor: chunk ? 'pointer' : 'default',
        color: chunk ? token.colorPrimary : token.colorTextTertiary,
        background: chunk ? token.colorPrimaryBg : token.colorFillSecondary,
      }}
    >
      {index + 1}
    </button>
  );
  if (!chunk) return badge;
  return (
    <Popover
      trigger="click"
      content={<ChunkCard chunk={chunk} />}
      title={t('chat.citedChunk', { n: index + 1 })}
    >
      {badge}
    </Popover>
  );
}

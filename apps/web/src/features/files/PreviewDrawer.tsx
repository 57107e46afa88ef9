import { useEffect, useState } from 'react';
import { Alert, Button, Drawer, Spin, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { FileListItem } from '@lectern/shared';
import { fetchFileBytes, fetchFilePreview } from '../../api/file';
import { DocxPreviewFrame, hasPagePreview, previewPageOf } from '../../components/DocxPreviewFrame';

type Shown =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'pdf' | 'image' | 'other'; url: string }
  | { kind: 'text'; url: string; text: string }
  | { kind: 'docx'; url: string; html: string };

const TEXT = /\.(txt|md|mdx|csv|json|jsonl|ya?ml|xml|ini|log|py|js|ts|java|c|cpp|h|go|sh|sql|html?)$/i;
const TEXT_LIMIT = 200_000;

/**
 * Preview of a file (`GET /v1/file/get/<id>` needs the Authorization header, so the bytes are read here
 * and shown from a blob URL): PDF and pictures as they are, text as text, DOCX as the server's sanitized
 * page in a sandboxed frame, anything else as a download.
 */
export function PreviewDrawer({ file, onClose }: { file: FileListItem; onClose: () => void }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState<Shown>({ kind: 'loading' });

  useEffect(() => {
    let url = '';
    let live = true;
    void (async () => {
      const result = await fetchFileBytes(file.id);
      const blob = result.data;
      if (!live) return;
      if (result.code !== 0 || !blob) return setShown({ kind: 'error', message: result.message });
      if (/\.pdf$/i.test(file.name)) {
        url = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
        return setShown({ kind: 'pdf', url });
      }
      url = URL.createObjectURL(blob);
      if (blob.type.startsWith('image/')) return setShown({ kind: 'image', url });
      if (hasPagePreview(file.name)) {
        const page = await previewPageOf(await fetchFilePreview(file.id));
        if (live) setShown(page.kind === 'error' ? page : { kind: 'docx', url, html: page.html });
        return;
      }
      if (TEXT.test(file.name) || blob.type.startsWith('text/')) {
        const text = await blob.slice(0, TEXT_LIMIT).text();
        if (live) setShown({ kind: 'text', url, text });
        return;
      }
      setShown({ kind: 'other', url });
    })();
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [file.id, file.name]);

  const url = 'url' in shown ? shown.url : undefined;
  return (
    <Drawer
      open
      size="large"
      title={file.name}
      onClose={onClose}
      extra={
        url && (
          <Button icon={<DownloadOutlined />} href={url} download={file.name}>
            {t('files.download')}
          </Button>
        )
      }
    >
      {shown.kind === 'loading' && <Spin />}
      {shown.kind === 'error' && <Alert type="error" showIcon title={shown.message} />}
      {shown.kind === 'pdf' && (
        <iframe title={file.name} src={shown.url} style={{ width: '100%', height: '80vh', border: 0 }} />
      )}
      {shown.kind === 'image' && <img src={shown.url} alt={file.name} style={{ maxWidth: '100%' }} />}
      {shown.kind === 'text' && (
        <pre data-testid="file-preview-text" style={{ whiteSpace: 'pre-wrap', fontSize: 13 }}>
          {shown.text}
        </pre>
      )}
      {shown.kind === 'docx' && <DocxPreviewFrame html={shown.html} title={file.name} />}
      {shown.kind === 'other' && <Typography.Paragraph>{t('files.noPreview')}</Typography.Paragraph>}
    </Drawer>
  );
}

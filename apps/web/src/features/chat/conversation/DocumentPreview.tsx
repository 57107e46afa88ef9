import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Drawer, Space, Spin } from 'antd';
import { DownloadOutlined, ExportOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { fetchDocumentFile, fetchDocumentPreview } from '../../../api/document';
import { DocxPreviewFrame, hasPagePreview, previewPageOf } from '../../../components/DocxPreviewFrame';
import { DocumentOpenerContext } from './document-context';

/**
 * Opens a cited document in a drawer: `GET /v1/document/get/<id>` needs the Authorization header, so
 * the bytes are fetched here and shown from a blob URL (PDF and pictures as they are, text as text,
 * DOCX as the server's sanitized page in a sandboxed frame), with "open in a new tab" and "download".
 */

const TEXT_EXTENSIONS = new Set([
  'txt',
  'md',
  'markdown',
  'mdx',
  'csv',
  'tsv',
  'json',
  'jsonl',
  'xml',
  'html',
  'htm',
  'log',
  'yaml',
  'yml',
  'ini',
  'toml',
  'py',
  'js',
  'ts',
  'java',
  'c',
  'cpp',
  'h',
  'go',
  'rs',
  'sql',
  'sh',
  'css',
  'eml',
]);

const extensionOf = (name: string) => (/\.([^.]+)$/.exec(name)?.[1] ?? '').toLowerCase();

type Loaded =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'pdf' | 'image' | 'other'; url: string }
  | { kind: 'text'; url: string; text: string }
  | { kind: 'docx'; url: string; html: string };

async function load(id: string, name: string): Promise<Loaded> {
  const result = await fetchDocumentFile(id);
  const blob = result.data;
  if (result.code !== 0 || !blob) return { kind: 'error', message: result.message };
  if (blob.type.includes('json') && extensionOf(name) !== 'json') {
    const envelope = JSON.parse(await blob.text().catch(() => '{}')) as { code?: number; message?: string };
    if (typeof envelope.code === 'number' && envelope.code !== 0)
      return { kind: 'error', message: envelope.message ?? '' };
  }
  const ext = extensionOf(name);
  if (ext === 'pdf')
    return { kind: 'pdf', url: URL.createObjectURL(new Blob([blob], { type: 'application/pdf' })) };
  if (blob.type.startsWith('image/')) return { kind: 'image', url: URL.createObjectURL(blob) };
  if (hasPagePreview(name)) {
    const page = await previewPageOf(await fetchDocumentPreview(id));
    if (page.kind === 'error') return page;
    return { kind: 'docx', url: URL.createObjectURL(blob), html: page.html };
  }
  if (TEXT_EXTENSIONS.has(ext) || blob.type.startsWith('text/')) {
    return { kind: 'text', url: URL.createObjectURL(blob), text: await blob.text() };
  }
  return { kind: 'other', url: URL.createObjectURL(blob) };
}

function PreviewDrawer({ doc, onClose }: { doc: { id: string; name: string } | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });

  useEffect(() => {
    if (!doc) return;
    let alive = true;
    let url: string | null = null;
    setLoaded({ kind: 'loading' });
    void load(doc.id, doc.name).then((next) => {
      if ('url' in next) url = next.url;
      if (alive) setLoaded(next);
      else if (url) URL.revokeObjectURL(url);
    });
    return () => {
      alive = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [doc]);

  const url = 'url' in loaded ? loaded.url : null;
  return (
    <Drawer
      open={doc !== null}
      onClose={onClose}
      title={doc?.name}
      size="large"
      destroyOnHidden
      extra={
        url && (
          <Space>
            <Button icon={<ExportOutlined />} href={url} target="_blank" rel="noopener">
              {t('chat.openInNewTab')}
            </Button>
            <Button icon={<DownloadOutlined />} href={url} download={doc?.name}>
              {t('chat.download')}
            </Button>
          </Space>
        )
      }
    >
      {loaded.kind === 'loading' && (
        <div style={{ display: 'flex', justifyContent: 'center', padding: 48 }}>
          <Spin />
        </div>
      )}
      {loaded.kind === 'error' && (
        <Alert type="error" showIcon title={loaded.message || t('chat.documentUnavailable')} />
      )}
      {loaded.kind === 'pdf' && (
        <iframe
          src={loaded.url}
          title={doc?.name}
          style={{ width: '100%', height: '100%', border: 0, minHeight: 600 }}
        />
      )}
      {loaded.kind === 'image' && <img src={loaded.url} alt={doc?.name} style={{ maxWidth: '100%' }} />}
      {loaded.kind === 'text' && (
        <pre
          data-testid="document-text"
          style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', margin: 0 }}
        >
          {loaded.text}
        </pre>
      )}
      {loaded.kind === 'docx' && <DocxPreviewFrame html={loaded.html} title={doc?.name ?? ''} />}
      {loaded.kind === 'other' && <Alert type="info" showIcon title={t('chat.noPreview')} />}
    </Drawer>
  );
}

/** Gives everything inside it a way to open documents (citations, source lists). */
export function DocumentPreviewProvider({ children }: { children: ReactNode }) {
  const [doc, setDoc] = useState<{ id: string; name: string } | null>(null);
  return (
    <DocumentOpenerContext.Provider value={setDoc}>
      {children}
      <PreviewDrawer doc={doc} onClose={() => setDoc(null)} />
    </DocumentOpenerContext.Provider>
  );
}

import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Empty, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ChunkRow, DocumentInfo } from '@lectern/shared';
import { useDocumentFile } from '../../api/chunk';
import { PdfPreview } from './PdfPreview';
import { plainText, sanitizeHtml } from './safe-html';

/** Extensions whose original file is readable text. */
const TEXT_SUFFIXES = new Set([
  'txt', 'md', 'mdx', 'csv', 'json', 'jsonl', 'ldjson', 'xml', 'yml', 'ini', 'py', 'js', 'ts', 'java', 'c', 'cpp',
  'h', 'php', 'go', 'sh', 'cs', 'kt', 'sql', 'htm', 'html',
]); // prettier-ignore
const IMAGE_SUFFIXES = new Set(['png', 'jpg', 'jpeg', 'gif', 'bmp', 'webp', 'ico', 'svg', 'tif', 'tiff']);

export type PreviewKind = 'pdf' | 'text' | 'image' | 'chunks' | 'none';

export function previewKind(doc: Pick<DocumentInfo, 'type' | 'suffix'>): PreviewKind {
  const suffix = (doc.suffix || '').toLowerCase();
  if (doc.type === 'virtual') return 'none';
  if (suffix === 'pdf') return 'pdf';
  if (TEXT_SUFFIXES.has(suffix)) return 'text';
  if (IMAGE_SUFFIXES.has(suffix) && suffix !== 'svg') return 'image';
  return 'chunks';
}

/** Splits `text` around the first occurrence of `needle` (whitespace-insensitive), or null. */
export function findPassage(text: string, needle: string): [string, string, string] | null {
  const words = needle.trim().split(/\s+/).filter(Boolean).slice(0, 2000);
  if (words.length === 0) return null;
  const pattern = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'));
  const m = pattern.exec(text);
  if (!m) return null;
  return [text.slice(0, m.index), m[0], text.slice(m.index + m[0].length)];
}

/** Scrolls the preview (only the preview, never the page) so that `el` is in the middle. */
function scrollToMark(el: HTMLElement | null) {
  const region = el?.closest<HTMLElement>('[role="region"]');
  if (!el || !region) return;
  region.scrollTo({ top: Math.max(0, el.offsetTop - region.clientHeight / 2) });
}

function TextPreview({ file, selected }: { file: Blob; selected: ChunkRow | null }) {
  const [text, setText] = useState<string | null>(null);
  const mark = useRef<HTMLElement>(null);
  useEffect(() => {
    let live = true;
    void file.text().then((s) => live && setText(s));
    return () => {
      live = false;
    };
  }, [file]);
  const parts = useMemo(
    () =>
      text !== null && selected
        ? findPassage(text, plainText(selected.content_with_weight).split('...')[0])
        : null,
    [text, selected],
  );
  useEffect(() => scrollToMark(mark.current), [parts]);
  if (text === null) return <Spin />;
  return (
    <pre
      data-testid="text-preview"
      style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', margin: 0, fontSize: 13 }}
    >
      {parts ? (
        <>
          {parts[0]}
          <mark ref={mark} data-testid="chunk-highlight">
            {parts[1]}
          </mark>
          {parts[2]}
        </>
      ) : (
        text
      )}
    </pre>
  );
}

function ImagePreview({ file, name }: { file: Blob; name: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const u = URL.createObjectURL(file);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [file]);
  return url ? <img src={url} alt={name} style={{ maxWidth: '100%' }} /> : null;
}

/** The parsed text: the listed chunks in reading order, the selected one marked. */
function ChunkTextPreview({ chunks, selected }: { chunks: ChunkRow[]; selected: ChunkRow | null }) {
  return (
    <div data-testid="text-preview">
      {chunks.map((c) => (
        <div
          key={c.chunk_id}
          data-testid={selected?.chunk_id === c.chunk_id ? 'chunk-highlight' : undefined}
          style={{
            padding: '4px 6px',
            marginBottom: 6,
            borderRadius: 4,
            background: selected?.chunk_id === c.chunk_id ? 'rgba(250, 173, 20, 0.3)' : undefined,
          }}
          dangerouslySetInnerHTML={{ __html: sanitizeHtml(c.content_with_weight) }}
        />
      ))}
    </div>
  );
}

/** The document shown beside its chunks: PDF pages with the selected chunk highlighted, or its text. */
export function DocumentPreview({
  doc,
  chunks,
  selected,
}: {
  doc: DocumentInfo;
  chunks: ChunkRow[];
  selected: ChunkRow | null;
}) {
  const { t } = useTranslation();
  const kind = previewKind(doc);
  const file = useDocumentFile(doc.id, kind === 'pdf' || kind === 'text' || kind === 'image');
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(520);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth || 520));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  let body: React.ReactNode;
  if (kind === 'none') body = <Empty description={t('chunks.noFile')} />;
  else if (kind === 'chunks') {
    body = (
      <>
        <Typography.Paragraph type="secondary">
          {t('chunks.parsedTextNote', { ext: doc.suffix })}
        </Typography.Paragraph>
        <ChunkTextPreview chunks={chunks} selected={selected} />
      </>
    );
  } else if (file.isPending) body = <Spin />;
  else if (!file.data) body = <Alert type="warning" showIcon title={t('chunks.previewFailed')} />;
  else if (kind === 'pdf')
    body = <PdfPreview file={file.data} positions={selected?.positions} width={width} />;
  else if (kind === 'image') body = <ImagePreview file={file.data} name={doc.name} />;
  else body = <TextPreview file={file.data} selected={selected} />;

  return (
    <div
      ref={box}
      aria-label={t('chunks.previewLabel')}
      role="region"
      style={{ height: '100%', position: 'relative', overflow: kind === 'pdf' ? 'hidden' : 'auto' }}
    >
      {body}
    </div>
  );
}

import { useEffect, useRef, useState } from 'react';
import { Alert, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ChunkPosition } from '@lectern/shared';
import type { PDFDocumentProxy } from 'pdfjs-dist';

/**
 * A PDF rendered page by page with pdf.js (loaded on first use), with the selected chunk's positions
 * `[page, x0, x1, top, bottom]` (PDF points, origin top-left) drawn as highlighted rectangles over the
 * page images. The view scrolls to the first rectangle when the selection changes.
 */

type PdfLib = typeof import('pdfjs-dist');
let pdfLib: Promise<PdfLib> | null = null;

function loadPdfLib(): Promise<PdfLib> {
  pdfLib ??= Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]).then(
    ([lib, worker]) => {
      lib.GlobalWorkerOptions.workerSrc = worker.default;
      return lib;
    },
  );
  return pdfLib;
}

/** Pages rendered at most (a preview, not a reader). */
export const MAX_PREVIEW_PAGES = 60;

interface PageBox {
  number: number;
  width: number;
  height: number;
  scale: number;
}

export function highlightRects(positions: ChunkPosition[] | undefined, pages: PageBox[]) {
  const byNumber = new Map(pages.map((p) => [p.number, p]));
  return (positions ?? []).flatMap(([page, x0, x1, top, bottom], i) => {
    const box = byNumber.get(page);
    if (!box || !(x1 > x0) || !(bottom > top)) return [];
    return [
      {
        key: `${page}-${i}`,
        page,
        left: x0 * box.scale,
        top: top * box.scale,
        width: (x1 - x0) * box.scale,
        height: (bottom - top) * box.scale,
      },
    ];
  });
}

function PdfPage({
  pdf,
  box,
  rects,
}: {
  pdf: PDFDocumentProxy;
  box: PageBox;
  rects: ReturnType<typeof highlightRects>;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let cancelled = false;
    let task: { cancel(): void; promise: Promise<void> } | null = null;
    void pdf.getPage(box.number).then((page) => {
      if (cancelled || !canvas.current) return;
      const ratio = window.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: box.scale * ratio });
      const el = canvas.current;
      el.width = Math.floor(viewport.width);
      el.height = Math.floor(viewport.height);
      const context = el.getContext('2d');
      if (!context) return;
      task = page.render({ canvasContext: context, viewport });
      task.promise.catch(() => undefined);
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [pdf, box.number, box.scale]);
  return (
    <div
      data-testid="pdf-page"
      data-page={box.number}
      style={{
        position: 'relative',
        width: box.width,
        height: box.height,
        margin: '0 auto 12px',
        boxShadow: '0 1px 4px rgba(0,0,0,.15)',
        background: '#fff',
      }}
    >
      <canvas ref={canvas} style={{ width: box.width, height: box.height, display: 'block' }} />
      {rects.map((r) => (
        <div
          key={r.key}
          data-testid="chunk-highlight"
          style={{
            position: 'absolute',
            left: r.left,
            top: r.top,
            width: r.width,
            height: r.height,
            background: 'rgba(250, 173, 20, 0.35)',
            outline: '2px solid rgba(250, 140, 22, 0.9)',
            pointerEvents: 'none',
          }}
        />
      ))}
    </div>
  );
}

export function PdfPreview({
  file,
  positions,
  width,
}: {
  file: Blob;
  positions?: ChunkPosition[];
  width: number;
}) {
  const { t } = useTranslation();
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [sizes, setSizes] = useState<Array<{ width: number; height: number }>>([]);
  const [failed, setFailed] = useState(false);
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let cancelled = false;
    let opened: PDFDocumentProxy | null = null;
    void (async () => {
      try {
        const lib = await loadPdfLib();
        const doc = await lib.getDocument({ data: new Uint8Array(await file.arrayBuffer()) }).promise;
        opened = doc;
        const count = Math.min(doc.numPages, MAX_PREVIEW_PAGES);
        const out: Array<{ width: number; height: number }> = [];
        for (let n = 1; n <= count; n++) {
          const vp = (await doc.getPage(n)).getViewport({ scale: 1 });
          out.push({ width: vp.width, height: vp.height });
        }
        if (cancelled) return;
        setSizes(out);
        setPdf(doc);
      } catch {
        if (!cancelled) setFailed(true);
      }
    })();
    return () => {
      cancelled = true;
      void opened?.destroy();
    };
  }, [file]);

  const pages: PageBox[] = sizes.map((s, i) => {
    const scale = Math.max(0.2, (width - 24) / s.width);
    return { number: i + 1, width: s.width * scale, height: s.height * scale, scale };
  });
  const rects = highlightRects(positions, pages);
  const first = rects[0];

  useEffect(() => {
    if (!first || !container.current) return;
    const page = container.current.querySelector<HTMLElement>(`[data-page="${first.page}"]`);
    if (page) container.current.scrollTo({ top: page.offsetTop + first.top - 40, behavior: 'smooth' });
  }, [first?.page, first?.top, first]);

  if (failed) return <Alert type="warning" showIcon title={t('chunks.previewFailed')} />;
  if (!pdf) {
    return (
      <div style={{ display: 'flex', justifyContent: 'center', padding: 48 }}>
        <Spin />
      </div>
    );
  }
  return (
    <div
      ref={container}
      data-testid="pdf-preview"
      style={{ height: '100%', overflow: 'auto', position: 'relative', padding: '12px 0' }}
    >
      {pages.map((box) => (
        <PdfPage key={box.number} pdf={pdf} box={box} rects={rects.filter((r) => r.page === box.number)} />
      ))}
      {pdf.numPages > MAX_PREVIEW_PAGES && (
        <Alert type="info" showIcon title={t('chunks.previewTruncated', { count: MAX_PREVIEW_PAGES })} />
      )}
    </div>
  );
}

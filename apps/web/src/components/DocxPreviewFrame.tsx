/**
 * A DOCX shown as the sanitized HTML page the server builds (`GET /v1/document/preview/<id>`,
 * `GET /v1/file/preview/<id>`). The page is user content: it is shown in an iframe with an empty
 * `sandbox` (no scripts, no same-origin access, no forms, no popups), on top of the server's
 * allow-list rebuild and the page's own CSP.
 */
import type { ApiResult } from '../api/request';

export type PreviewPage = { kind: 'docx'; html: string } | { kind: 'error'; message: string };

/** True for the names the server can preview as a page. */
export const hasPagePreview = (name: string) => /\.docx$/i.test(name);

/** The page of a preview answer; a refusal arrives as a JSON envelope inside the blob. */
export async function previewPageOf(result: ApiResult<Blob>): Promise<PreviewPage> {
  const blob = result.data;
  if (result.code !== 0 || !blob) return { kind: 'error', message: result.message };
  const text = await blob.text();
  if (blob.type.includes('json')) {
    let envelope: { code?: number; message?: string } = {};
    try {
      envelope = JSON.parse(text) as typeof envelope;
    } catch {
      return { kind: 'error', message: result.message };
    }
    if (typeof envelope.code === 'number' && envelope.code !== 0)
      return { kind: 'error', message: envelope.message ?? '' };
  }
  return { kind: 'docx', html: text };
}

export function DocxPreviewFrame({ html, title }: { html: string; title: string }) {
  return (
    <iframe
      data-testid="docx-preview"
      title={title}
      sandbox=""
      srcDoc={html}
      style={{ width: '100%', height: '100%', minHeight: 600, border: 0, background: '#fff' }}
    />
  );
}

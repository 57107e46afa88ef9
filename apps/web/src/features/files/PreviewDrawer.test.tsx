import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { FileListItem } from '@lectern/shared';
import '../../i18n';
import { fetchFileBytes, fetchFilePreview } from '../../api/file';
import { previewPageOf } from '../../components/DocxPreviewFrame';
import { PreviewDrawer } from './PreviewDrawer';

/**
 * The file preview of a DOCX (issue 11 item 12): the server's sanitized page is shown in an iframe
 * with an empty sandbox (nothing in it runs), and a refusal shows the server's message.
 */

vi.mock('../../api/file', () => ({ fetchFileBytes: vi.fn(), fetchFilePreview: vi.fn() }));
// React's act() warns unless the environment says it is a test one.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const PAGE = '<!doctype html><html><body><h1>Harbour report</h1><p>42 ships.</p></body></html>';

const success = (blob: Blob) => ({ code: 0, message: 'success', data: blob, status: 200, headers: null });

const docxFile: FileListItem = {
  id: 'f1',
  parent_id: 'root',
  tenant_id: 't',
  created_by: 't',
  name: 'report.docx',
  location: '',
  size: 4,
  type: 'doc',
  source_type: '',
  create_time: 0,
  create_date: '',
  update_time: 0,
  update_date: '',
  kbs_info: [],
};

let root: Root | null = null;
let host: HTMLDivElement;

afterEach(async () => {
  act(() => root?.unmount());
  host?.remove();
  await new Promise((resolve) => setTimeout(resolve, 20));
});

async function renderDrawer() {
  host = document.createElement('div');
  document.body.appendChild(host);
  root = createRoot(host);
  act(() => root!.render(<PreviewDrawer file={docxFile} onClose={() => {}} />));
  await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
}

describe('DOCX preview', () => {
  it('shows the server page in a sandboxed frame', async () => {
    vi.mocked(fetchFileBytes).mockResolvedValue(success(new Blob(['PK..'], { type: DOCX_TYPE })));
    vi.mocked(fetchFilePreview).mockResolvedValue(
      success(new Blob([PAGE], { type: 'text/plain; charset=utf-8' })),
    );
    await renderDrawer();
    expect(fetchFilePreview).toHaveBeenCalledWith('f1');
    const frame = document.body.querySelector<HTMLIFrameElement>('[data-testid="docx-preview"]');
    expect(frame).not.toBeNull();
    expect(frame!.getAttribute('sandbox')).toBe('');
    expect(frame!.getAttribute('srcdoc')).toBe(PAGE);
    expect(document.body.textContent).not.toContain('cannot be shown here');
  });

  it("shows the server's refusal", async () => {
    vi.mocked(fetchFileBytes).mockResolvedValue(success(new Blob(['PK..'], { type: DOCX_TYPE })));
    const refusal = JSON.stringify({ code: 102, message: 'The file could not be read as a DOCX document.' });
    vi.mocked(fetchFilePreview).mockResolvedValue(success(new Blob([refusal], { type: 'application/json' })));
    await renderDrawer();
    expect(document.body.querySelector('[data-testid="docx-preview"]')).toBeNull();
    expect(document.body.textContent).toContain('The file could not be read as a DOCX document.');
  });

  it('reads a failed call as an error', async () => {
    const failed = { code: 100, message: 'Network anomaly', data: null, status: 0, headers: null };
    expect(await previewPageOf(failed)).toEqual({ kind: 'error', message: 'Network anomaly' });
  });
});

/**
 * Watching the file manager's upload dialog from outside (browser test and bench/files-upload.ts): a
 * drop of files or folders from disk as a person's drop (Chromium drag input), and a record of every
 * state each entry shows — every React commit that changes an entry's `data-state` or its progress
 * bar is logged by a MutationObserver on the page, with its time, so short states are not missed
 * between polls. Entries are read across all of the dialog's folder groups.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';

/** One observed change of an entry: its state and progress (0–100, while uploading) at time `t` (ms). */
export interface UploadMark {
  path: string;
  state: string;
  progress: number | null;
  t: number;
}

/** Drags `paths` (files and/or folders on disk) onto `target`, as a person's drop from the file browser. */
export async function dropPaths(context: BrowserContext, page: Page, target: Locator, paths: string[]) {
  // A dialog zooms in when it opens: drop only once the target has stopped moving (a drop dispatched
  // during the animation is not taken by the drop zone).
  let box = await target.boundingBox();
  for (let i = 0; i < 50; i++) {
    await page.waitForTimeout(50);
    const next = await target.boundingBox();
    const still =
      box && next && ['x', 'y', 'width', 'height'].every((k) => box![k as 'x'] === next[k as 'x']);
    box = next;
    if (still) break;
  }
  if (!box) throw new Error('the drop target is not visible');
  const cdp = await context.newCDPSession(page);
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const data = { items: [], files: paths, dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop'] as const)
    await cdp.send('Input.dispatchDragEvent', { type, ...at, data });
  await cdp.detach();
}

/**
 * Starts recording entry changes on the page (a fresh log each call). A string, not a function: the
 * bench's TypeScript loader would wrap a named function in a helper that does not exist on the page.
 */
export async function watchUploads(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    globalThis.__uploadObserver?.disconnect();
    const log = [];
    const last = new Map();
    const scan = () => {
      const t = performance.now();
      for (const el of document.querySelectorAll('[data-testid="upload-entry"]')) {
        const path = el.getAttribute('data-path') ?? '';
        const state = el.getAttribute('data-state') ?? '';
        const bar = el.querySelector('[role="progressbar"][aria-valuenow]');
        const progress = bar ? Number(bar.getAttribute('aria-valuenow')) : null;
        const key = state + '|' + progress;
        if (last.get(path) === key) continue;
        last.set(path, key);
        log.push({ path, state, progress, t });
      }
    };
    globalThis.__uploadLog = log;
    globalThis.__uploadObserver = new MutationObserver(scan);
    globalThis.__uploadObserver.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-state', 'aria-valuenow'],
    });
    scan();
  })()`);
}

export async function uploadLog(page: Page): Promise<UploadMark[]> {
  return (await page.evaluate('globalThis.__uploadLog ?? []')) as UploadMark[];
}

/** The current state of every entry in the dialog, by path. */
export async function entryStates(dialog: Locator): Promise<Record<string, string>> {
  const pairs = await dialog
    .getByTestId('upload-entry')
    .evaluateAll((els) =>
      els.map((e) => [e.getAttribute('data-path') ?? '', e.getAttribute('data-state') ?? '']),
    );
  return Object.fromEntries(pairs);
}

export interface EntryHistory {
  /** States in the order shown, consecutive repeats folded. */
  states: string[];
  /** Distinct progress values (0–100) shown while uploading. */
  progress: number[];
  /** First time seen (queued), first time uploading, first time uploaded after the last failure. */
  queuedAt: number | null;
  uploadingAt: number | null;
  uploadedAt: number | null;
}

/** The log folded per entry. */
export function historyByPath(log: UploadMark[]): Map<string, EntryHistory> {
  const out = new Map<string, EntryHistory>();
  for (const m of log) {
    let h = out.get(m.path);
    if (!h) {
      h = { states: [], progress: [], queuedAt: null, uploadingAt: null, uploadedAt: null };
      out.set(m.path, h);
    }
    if (h.states.at(-1) !== m.state) h.states.push(m.state);
    if (m.progress !== null && !h.progress.includes(m.progress)) h.progress.push(m.progress);
    h.queuedAt ??= m.t;
    if (m.state === 'uploading') h.uploadingAt ??= m.t;
    if (m.state === 'failed') h.uploadedAt = null;
    if (m.state === 'uploaded') h.uploadedAt ??= m.t;
  }
  return out;
}

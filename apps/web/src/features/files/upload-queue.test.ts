import { describe, expect, it } from 'vitest';
import {
  entriesToStart,
  groupByTopFolder,
  relativePathOf,
  summarize,
  uploadReducer,
  type UploadEntry,
} from './upload-queue';

const add = (paths: string[], error?: string) =>
  uploadReducer([], {
    type: 'add',
    entries: paths.map((path, i) => ({ uid: `u${i}`, path, size: 100, parentId: 'root', error })),
  });

describe('upload queue', () => {
  it('keeps relative paths of folder picks and drops, else the name', () => {
    expect(relativePathOf({ name: 'a.txt', webkitRelativePath: 'docs/sub/a.txt' })).toBe('docs/sub/a.txt');
    expect(relativePathOf({ name: 'a.txt', webkitRelativePath: '' })).toBe('a.txt');
    expect(relativePathOf({ name: 'a.txt' })).toBe('a.txt');
    expect(relativePathOf({ name: 'a.txt', webkitRelativePath: '/docs\\a.txt' })).toBe('docs/a.txt');
  });

  it('groups entries by their top folder, loose files together', () => {
    const entries = add(['docs/a.txt', 'b.txt', 'docs/sub/c.txt', 'img/d.png', 'e.md']);
    expect(groupByTopFolder(entries).map((g) => [g.folder, g.entries.map((e) => e.path)])).toEqual([
      ['docs', ['docs/a.txt', 'docs/sub/c.txt']],
      [null, ['b.txt', 'e.md']],
      ['img', ['img/d.png']],
    ]);
  });

  it('moves an entry queued → uploading → uploaded with progress that never goes back', () => {
    let s = add(['a.txt']);
    expect(s[0]).toMatchObject({ state: 'queued', progress: 0 });
    s = uploadReducer(s, { type: 'start', uid: 'u0' });
    s = uploadReducer(s, { type: 'progress', uid: 'u0', fraction: 0.6 });
    s = uploadReducer(s, { type: 'progress', uid: 'u0', fraction: 0.3 });
    expect(s[0]).toMatchObject({ state: 'uploading', progress: 0.6 });
    // Fully sent is not yet stored: 99 % until the server answers.
    s = uploadReducer(s, { type: 'progress', uid: 'u0', fraction: 1 });
    expect(s[0]!.progress).toBe(0.99);
    s = uploadReducer(s, { type: 'done', uid: 'u0' });
    expect(s[0]).toMatchObject({ state: 'uploaded', progress: 1 });
    // Late progress events change nothing.
    expect(uploadReducer(s, { type: 'progress', uid: 'u0', fraction: 0.2 })[0]!.progress).toBe(1);
  });

  it('fails with a reason and retries back to the queue; refused-at-pick entries start failed', () => {
    let s = add(['a.txt', 'b.txt']);
    s = uploadReducer(s, { type: 'start', uid: 'u0' });
    s = uploadReducer(s, { type: 'fail', uid: 'u0', error: 'Network anomaly' });
    expect(s[0]).toMatchObject({ state: 'failed', error: 'Network anomaly' });
    s = uploadReducer(s, { type: 'retry', uid: 'u0' });
    expect(s[0]).toMatchObject({ state: 'queued', progress: 0, error: undefined });
    expect(uploadReducer(s, { type: 'retry', uid: 'u1' })).toEqual(s); // only failed ones retry

    const refused = add(['big.bin'], 'Too large');
    expect(refused[0]).toMatchObject({ state: 'failed', error: 'Too large' });
    expect(uploadReducer(refused, { type: 'retryFailed' })[0]!.state).toBe('queued');
  });

  it('starts at most the concurrency limit and clears finished entries', () => {
    let s = add(['a', 'b', 'c', 'd', 'e']);
    expect(entriesToStart(s, 3).map((e) => e.uid)).toEqual(['u0', 'u1', 'u2']);
    s = uploadReducer(s, { type: 'start', uid: 'u0' });
    s = uploadReducer(s, { type: 'start', uid: 'u1' });
    expect(entriesToStart(s, 3).map((e) => e.uid)).toEqual(['u2']);
    s = uploadReducer(s, { type: 'done', uid: 'u0' });
    expect(entriesToStart(s, 3).map((e) => e.uid)).toEqual(['u2', 'u3']);
    expect(uploadReducer(s, { type: 'clearFinished' }).map((e) => e.uid)).toEqual(['u1', 'u2', 'u3', 'u4']);
  });

  it('summarises counts and size-weighted progress', () => {
    const entries: UploadEntry[] = [
      { uid: 'a', path: 'a', size: 300, parentId: undefined, state: 'uploaded', progress: 1 },
      { uid: 'b', path: 'b', size: 100, parentId: undefined, state: 'uploading', progress: 0.5 },
      { uid: 'c', path: 'c', size: 0, parentId: undefined, state: 'failed', progress: 0, error: 'x' },
    ];
    const s = summarize(entries);
    expect(s).toMatchObject({ total: 3, uploaded: 1, uploading: 1, failed: 1, queued: 0 });
    expect(s.progress).toBeCloseTo(350 / 401);
    expect(summarize([]).progress).toBe(0);
  });
});

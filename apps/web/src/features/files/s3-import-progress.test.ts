import { describe, expect, it } from 'vitest';
import type { S3ImportEvent } from '@lectern/shared';
import { initialS3Progress, isRunning, s3ProgressReducer, type S3ImportAction } from './s3-import-progress';

const fold = (actions: S3ImportAction[]) => actions.reduce(s3ProgressReducer, initialS3Progress);
const ev = (event: S3ImportEvent): S3ImportAction => ({ type: 'event', event });

describe('S3 import progress', () => {
  it('counts imported objects against the listed total and lists the skipped ones with reasons', () => {
    const state = fold([
      { type: 'start' },
      ev({ event: 'listed', total: 3 }),
      ev({ event: 'object', key: 'a.txt', status: 'imported', done: 1, total: 3 }),
      ev({ event: 'object', key: 'x/../b', status: 'skipped', reason: 'bad path', done: 2, total: 3 }),
    ]);
    expect(state).toMatchObject({ phase: 'copying', total: 3, done: 2, imported: 1 });
    expect(state.skipped).toEqual([{ key: 'x/../b', reason: 'bad path' }]);
    expect(isRunning(state)).toBe(true);
  });

  it('ends finished with the summary; a later stream end does not turn it into stopped', () => {
    const finished = fold([
      { type: 'start' },
      ev({ event: 'listed', total: 1 }),
      ev({ event: 'finished', files: [], skipped: [{ key: 'k', reason: 'r' }] }),
      { type: 'stopped' },
    ]);
    expect(finished).toMatchObject({ phase: 'finished', done: 1, imported: 0 });
    expect(isRunning(finished)).toBe(false);
  });

  it('a stop keeps the counts; a failure keeps them with the reason; reset goes back to the form', () => {
    const running = fold([
      { type: 'start' },
      ev({ event: 'listed', total: 10 }),
      ev({ event: 'object', key: 'a', status: 'imported', done: 1, total: 10 }),
    ]);
    expect(s3ProgressReducer(running, { type: 'stopped' })).toMatchObject({ phase: 'stopped', imported: 1 });
    expect(s3ProgressReducer(running, { type: 'failed', message: 'boom' })).toMatchObject({
      phase: 'failed',
      imported: 1,
      error: 'boom',
    });
    expect(s3ProgressReducer(running, { type: 'reset' })).toEqual(initialS3Progress);
    expect(fold([{ type: 'start' }]).phase).toBe('listing');
  });
});

/** The S3 import dialog's state, folded from the streamed events of `file/import_s3` (`stream: true`). */
import type { S3ImportEvent } from '@lectern/shared';

export type S3ImportPhase = 'form' | 'listing' | 'copying' | 'finished' | 'stopped' | 'failed';

export interface S3ImportProgress {
  phase: S3ImportPhase;
  /** Objects under the prefix (known once listed). */
  total: number;
  /** Objects handled so far (stored or skipped). */
  done: number;
  imported: number;
  skipped: Array<{ key: string; reason: string }>;
  /** Why the import failed (a refusal, or an error event mid-stream). */
  error: string | null;
}

export const initialS3Progress: S3ImportProgress = {
  phase: 'form',
  total: 0,
  done: 0,
  imported: 0,
  skipped: [],
  error: null,
};

export type S3ImportAction =
  | { type: 'start' }
  | { type: 'event'; event: S3ImportEvent }
  | { type: 'stopped' }
  | { type: 'failed'; message: string }
  | { type: 'reset' };

export function s3ProgressReducer(state: S3ImportProgress, action: S3ImportAction): S3ImportProgress {
  switch (action.type) {
    case 'start':
      return { ...initialS3Progress, phase: 'listing' };
    case 'reset':
      return initialS3Progress;
    case 'stopped':
      return state.phase === 'finished' ? state : { ...state, phase: 'stopped' };
    case 'failed':
      return { ...state, phase: 'failed', error: action.message };
    case 'event': {
      const e = action.event;
      if (e.event === 'listed') return { ...state, phase: 'copying', total: e.total };
      if (e.event === 'object')
        return {
          ...state,
          phase: 'copying',
          total: e.total,
          done: e.done,
          imported: state.imported + (e.status === 'imported' ? 1 : 0),
          skipped:
            e.status === 'skipped'
              ? [...state.skipped, { key: e.key, reason: e.reason ?? '' }]
              : state.skipped,
        };
      return {
        ...state,
        phase: 'finished',
        done: state.total,
        imported: e.files.length,
        skipped: e.skipped,
      };
    }
  }
}

/** Whether the import is under way (the form is locked and the dialog offers Stop). */
export const isRunning = (p: S3ImportProgress) => p.phase === 'listing' || p.phase === 'copying';

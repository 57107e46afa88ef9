/**
 * The `parse` task kind's handler: runs the ingestion pipeline for one task row, rolls its document
 * up after every progress write, and rolls up every running document periodically (documents whose
 * tasks were cancelled or claimed elsewhere still settle).
 */
import { describeErrorText, progressMessage } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import type { TaskHandler } from '../../queue/handlers.js';
import { WorkerJobError } from '../../util/worker-pool.js';
import { isParseError } from '../errors.js';
import { runParseTask } from '../pipeline.js';
import { rollupDocument, rollupRunning } from './rollup.js';

export function parseTaskHandler(ctx: AppContext): TaskHandler {
  return {
    run: (progress, signal) => runParseTask(ctx, progress, progress.owner, signal),
    afterWrite: (progress) => rollupDocument(ctx, progress.task.doc_id),
    describeFailure(err) {
      // A parser's own sentence of a known class (password, damaged, timeout, memory) is logged as the
      // catalogued, translatable sentence; others as written.
      if (isParseError(err) || err instanceof WorkerJobError)
        return describeErrorText((err as Error).message);
      if (err instanceof Error && err.name !== 'ModelError') {
        return progressMessage('parsingFailed', {
          error: (err.message || 'unknown error').split('\n')[0].slice(0, 300),
        });
      }
      return undefined;
    },
    start: () => ctx.parsePool.warm(),
    tick: () => rollupRunning(ctx),
  };
}

/**
 * The run logs (`canvas_run.events` / `trace`) of the runs live in this process, written while they
 * go on so that `GET /v1/canvas/trace` replays a run in progress and a restarted run has its log.
 * One timer for the whole process writes every run that changed since the last tick in a single
 * transaction: with 50 runs at once, a write per run per tick was 50 commits every tick.
 */
import type { Kysely } from 'kysely';
import { toJson } from '../db/json.js';
import type { Database } from '../db/types.js';
import { updateStamps } from '../util/time.js';

/** How often the logs of running runs are written. */
export const RUN_LOG_FLUSH_MS = 250;

/** What the flusher reads of a run when it writes its log. */
export interface RunLogSource {
  /** The run's message id (`canvas_run.id`). */
  id: string;
  /** The run's events as JSON text. */
  eventsJson(): string;
  trace(): unknown;
}

export class RunLogFlusher {
  private readonly dirty = new Map<string, RunLogSource>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: () => Kysely<Database>,
    private readonly intervalMs = RUN_LOG_FLUSH_MS,
  ) {}

  /** The run has new events: its log is written at the next tick. */
  touch(run: RunLogSource): void {
    this.dirty.set(run.id, run);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.writing = this.writing.then(() => this.flush());
    }, this.intervalMs);
    this.timer.unref();
  }

  /** The run ended: its final transaction writes the log, no tick does any more. */
  forget(id: string): void {
    this.dirty.delete(id);
  }

  /** Writes every changed log now (tests, shutdown). Failures are dropped: the next change retries. */
  async flush(): Promise<void> {
    if (this.dirty.size === 0) return;
    const runs = [...this.dirty.values()];
    this.dirty.clear();
    const stamps = updateStamps();
    await this.db()
      .transaction()
      .execute(async (tx) => {
        for (const run of runs)
          await tx
            .updateTable('canvas_run')
            .set({ events: run.eventsJson(), trace: toJson(run.trace()), ...stamps })
            .where('id', '=', run.id)
            .where('status', '=', 'running')
            .execute();
      })
      .catch(() => undefined);
  }
}

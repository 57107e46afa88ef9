/**
 * Runs executing in this process. Each has a feed of its events: any number of readers follow it
 * from the first event (a stream that reconnects, or several), and a reader that goes away never
 * stops the run — only a cancel does.
 */
import type { RunEvent } from '@lectern/agent-core';

export class RunFeed {
  readonly events: RunEvent[] = [];
  private ended = false;
  private wake: Array<() => void> = [];
  // The log as JSON, extended by the events pushed since it was last asked for: the log is written
  // every flush tick while the run goes on, and re-stringifying the whole array each time made a
  // long run's log cost grow with its square. (The run's final write stringifies the array afresh.)
  private serialized = '';
  private serializedCount = 0;

  push(e: RunEvent): void {
    this.events.push(e);
    this.notify();
  }

  /** `JSON.stringify(this.events)`, each event stringified once (events are not changed once pushed). */
  eventsJson(): string {
    for (; this.serializedCount < this.events.length; this.serializedCount++)
      this.serialized +=
        (this.serializedCount ? ',' : '') + JSON.stringify(this.events[this.serializedCount] ?? null);
    return `[${this.serialized}]`;
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  get done(): boolean {
    return this.ended;
  }

  private notify() {
    const w = this.wake;
    this.wake = [];
    for (const f of w) f();
  }

  /** Every event from the first, then new ones as they come, until the run ends. */
  async *follow(): AsyncGenerator<RunEvent> {
    let i = 0;
    for (;;) {
      while (i < this.events.length) yield this.events[i++];
      if (this.ended) return;
      await new Promise<void>((resolve) => this.wake.push(resolve));
    }
  }

  /**
   * The same events in batches: everything already there, then, each time new events come, all
   * of those pushed before the next turn of the event loop (a component ending and the next one
   * starting arrive together) — so a stream writes its socket once per batch, not per event.
   */
  async *followBatches(): AsyncGenerator<RunEvent[]> {
    let i = 0;
    for (;;) {
      if (i < this.events.length) {
        const batch = this.events.slice(i);
        i += batch.length;
        yield batch;
      }
      if (i < this.events.length) continue; // pushed while the reader wrote the last batch
      if (this.ended) return;
      await new Promise<void>((resolve) => this.wake.push(resolve));
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}

export interface LiveRun {
  taskId: string;
  messageId: string;
  canvasId: string;
  /** The owner tenant of the canvas. */
  tenantId: string;
  feed: RunFeed;
  cancel(): void;
  /** Settles once the run ended and its results (DSL, log, task row) are written. */
  finished: Promise<void>;
}

export class LiveRuns {
  private readonly byTask = new Map<string, LiveRun>();

  add(run: LiveRun): void {
    this.byTask.set(run.taskId, run);
    void run.finished.finally(() => this.byTask.delete(run.taskId));
  }

  get(taskId: string): LiveRun | undefined {
    return this.byTask.get(taskId);
  }

  /** Number of runs in progress here. */
  get size(): number {
    return this.byTask.size;
  }

  /** Stops every run (shutdown); their tasks stay unfinished and are picked up again elsewhere. */
  cancelAll(): void {
    for (const r of this.byTask.values()) r.cancel();
  }
}

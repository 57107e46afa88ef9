/**
 * Wake-ups for this process's workers: queueing a task pokes them so they claim without waiting for
 * the next poll. One instance per process, built by the composition root (root.ts).
 */
import { EventEmitter } from 'node:events';

export class TaskSignal {
  private readonly events = new EventEmitter();

  constructor() {
    this.events.setMaxListeners(50);
  }

  /** Something was queued: workers of this process try to claim now. */
  notifyQueued(): void {
    this.events.emit('queued');
  }

  onQueued(listener: () => void): () => void {
    this.events.on('queued', listener);
    return () => this.events.off('queued', listener);
  }
}

/**
 * Wake-ups for this process's workers: queueing a task pokes them so they claim without waiting for
 * the next poll. One instance per process, built by the composition root (root.ts). With several
 * processes on one PostgreSQL, `broadcast` carries the poke to the others (pg-wake.ts: LISTEN/NOTIFY);
 * polling stays the fallback when a notification is lost.
 */
import { EventEmitter } from 'node:events';

export class TaskSignal {
  private readonly events = new EventEmitter();
  private broadcast: (() => void) | undefined;

  constructor() {
    this.events.setMaxListeners(50);
  }

  /** Something was queued here: this process's workers try to claim now, and so do the others'. */
  notifyQueued(): void {
    this.events.emit('queued');
    this.broadcast?.();
  }

  /** Something was queued by another process. */
  receiveQueued(): void {
    this.events.emit('queued');
  }

  /** Sends each local `notifyQueued` to the other processes too. */
  setBroadcast(send: (() => void) | undefined): void {
    this.broadcast = send;
  }

  onQueued(listener: () => void): () => void {
    this.events.on('queued', listener);
    return () => this.events.off('queued', listener);
  }
}

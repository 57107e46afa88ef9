/** In-process wake-up: queueing a task pokes this process's workers so they claim without waiting to poll. */
import { EventEmitter } from 'node:events';
import type { AppContext } from '../context.js';

const emitters = new WeakMap<AppContext, EventEmitter>();

export function queueEvents(ctx: AppContext): EventEmitter {
  let e = emitters.get(ctx);
  if (!e) {
    e = new EventEmitter();
    e.setMaxListeners(50);
    emitters.set(ctx, e);
  }
  return e;
}

export function notifyQueued(ctx: AppContext): void {
  queueEvents(ctx).emit('queued');
}

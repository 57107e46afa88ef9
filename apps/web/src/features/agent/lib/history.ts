/**
 * Undo/redo of whole snapshots. `push` records the state before a change; consecutive pushes with the
 * same `mergeKey` within `mergeMs` (typing in one field, dragging one node) count as one step. The
 * stack keeps at most `limit` steps.
 */
export interface HistoryOptions {
  limit?: number;
  mergeMs?: number;
  now?: () => number;
}

export class UndoStack<T> {
  private past: T[] = [];
  private future: T[] = [];
  private lastKey: string | null = null;
  private lastAt = 0;
  private readonly limit: number;
  private readonly mergeMs: number;
  private readonly now: () => number;

  constructor(options: HistoryOptions = {}) {
    this.limit = options.limit ?? 100;
    this.mergeMs = options.mergeMs ?? 800;
    this.now = options.now ?? (() => Date.now());
  }

  /** Records `before`, the state as it was before the change about to happen. */
  push(before: T, mergeKey: string | null = null): void {
    const at = this.now();
    const merge = mergeKey !== null && mergeKey === this.lastKey && at - this.lastAt < this.mergeMs;
    this.lastKey = mergeKey;
    this.lastAt = at;
    this.future = [];
    if (merge) return;
    this.past.push(before);
    if (this.past.length > this.limit) this.past.shift();
  }

  /** The state to go back to, given the current one (kept for redo); null when there is nothing. */
  undo(current: T): T | null {
    const previous = this.past.pop();
    if (previous === undefined) return null;
    this.future.push(current);
    this.lastKey = null;
    return previous;
  }

  redo(current: T): T | null {
    const next = this.future.pop();
    if (next === undefined) return null;
    this.past.push(current);
    this.lastKey = null;
    return next;
  }

  get canUndo(): boolean {
    return this.past.length > 0;
  }

  get canRedo(): boolean {
    return this.future.length > 0;
  }

  clear(): void {
    this.past = [];
    this.future = [];
    this.lastKey = null;
  }
}

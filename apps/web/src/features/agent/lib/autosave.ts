/**
 * Autosave: changes are saved `delayMs` after the last one; saves never overlap (a change made while one
 * is in flight is saved after it); `flush` saves at once (leaving the page, explicit save). The state is what
 * the header shows: saved, unsaved changes, saving, or failed (with the reason).
 */
export type SaveState =
  | { kind: 'saved'; at: number | null }
  | { kind: 'dirty' }
  | { kind: 'saving' }
  | { kind: 'error'; message: string };

export interface AutosaveOptions<T> {
  delayMs: number;
  save: (value: T) => Promise<{ ok: true } | { ok: false; message: string }>;
  onState: (state: SaveState) => void;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export class Autosaver<T> {
  private pending: { value: T } | null = null;
  private timer: unknown = null;
  private inFlight: Promise<void> | null = null;
  private error: string | null = null;
  private readonly o: Required<AutosaveOptions<T>>;

  constructor(options: AutosaveOptions<T>) {
    this.o = {
      now: () => Date.now(),
      setTimer: (fn, ms) => setTimeout(fn, ms),
      clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      ...options,
    };
  }

  /** A new value to save; restarts the delay. */
  change(value: T): void {
    this.pending = { value };
    this.o.onState({ kind: 'dirty' });
    if (this.timer !== null) this.o.clearTimer(this.timer);
    this.timer = this.o.setTimer(() => {
      this.timer = null;
      void this.run();
    }, this.o.delayMs);
  }

  /** Why the last save failed, or null when it succeeded (or nothing was saved yet). */
  get lastError(): string | null {
    return this.error;
  }

  get hasPending(): boolean {
    return this.pending !== null || this.inFlight !== null;
  }

  /** Saves what is pending now and resolves when nothing is left to save. */
  async flush(): Promise<void> {
    if (this.timer !== null) {
      this.o.clearTimer(this.timer);
      this.timer = null;
    }
    await this.run();
  }

  /** Drops what is pending (the canvas was replaced, e.g. by a restored version). */
  cancel(): void {
    if (this.timer !== null) this.o.clearTimer(this.timer);
    this.timer = null;
    this.pending = null;
  }

  private async run(): Promise<void> {
    while (this.inFlight) await this.inFlight;
    const next = this.pending;
    if (!next) return;
    this.pending = null;
    this.o.onState({ kind: 'saving' });
    this.inFlight = (async () => {
      let result: { ok: true } | { ok: false; message: string };
      try {
        result = await this.o.save(next.value);
      } catch (e) {
        result = { ok: false, message: e instanceof Error ? e.message : String(e) };
      }
      this.error = result.ok ? null : result.message;
      if (this.pending) return; // a newer change waits: its save reports the state
      this.o.onState(
        result.ok ? { kind: 'saved', at: this.o.now() } : { kind: 'error', message: result.message },
      );
    })();
    try {
      await this.inFlight;
    } finally {
      this.inFlight = null;
    }
    if (this.pending && this.timer === null) await this.run();
  }
}

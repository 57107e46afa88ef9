/**
 * A small pool of workers (child processes or threads, see run-in-worker.ts) running one entry file
 * (`*.worker.ts`), so CPU-heavy parsing never blocks the API's event loop. Each job gets a time limit;
 * a worker that exceeds it, runs out of its memory limit, crashes, or keeps an abandoned job (task
 * cancelled) too long is ended and replaced.
 *
 * Protocol: the pool posts `{ id, op, payload }`; the worker answers `{ id, type: 'progress', fraction,
 * message }` any number of times, then `{ id, type: 'result', value }` or `{ id, type: 'error', name,
 * message }`.
 */
import { spawnWorker, type Isolation, type WorkerEnd, type WorkerHandle } from './run-in-worker.js';

export interface JobOptions {
  timeoutMs?: number;
  /** Called for each progress message; a rejection abandons the job with that error. */
  onProgress?: (fraction: number, message: string) => Promise<void> | void;
  signal?: AbortSignal;
  /**
   * Jobs with the same key prefer the worker that ran the last ones (it may hold state for them, e.g.
   * an opened PDF); when that worker is busy a free one takes the job anyway.
   */
  affinity?: string;
}

/** Raised when a worker thread dies (memory limit, crash) or exceeds its time. */
export class WorkerJobError extends Error {
  constructor(
    message: string,
    readonly reason: 'timeout' | 'memory' | 'crash',
  ) {
    super(message);
    this.name = 'WorkerJobError';
  }
}

interface Job {
  id: number;
  op: string;
  payload: unknown;
  opts: JobOptions;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/** How long an abandoned job may keep its thread before the thread is replaced. */
const ABANDON_GRACE_MS = 5_000;
/** Affinity keys remembered per worker (most recent last). */
const AFFINITY_KEYS = 4;

interface Slot {
  worker: WorkerHandle;
  job: Job | null;
  /** The job's caller was already answered (cancelled); its result will be discarded. */
  abandoned: boolean;
  timer: NodeJS.Timeout | null;
  progress: Promise<void>;
  /** Affinity keys of the jobs this worker ran lately. */
  affinity: string[];
}

type Reply =
  | { id: number; type: 'progress'; fraction: number; message: string }
  | { id: number; type: 'result'; value: unknown }
  | { id: number; type: 'error'; name: string; message: string };

export interface PoolOptions {
  entry: string;
  size: number;
  isolation: Isolation;
  /** Heap limit of each worker (V8 old generation), MB. */
  maxHeapMb: number;
  defaultTimeoutMs: number;
}

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly opts: PoolOptions) {}

  get size(): number {
    return this.opts.size;
  }

  /** Process ids of the pool's child processes (for memory accounting). */
  pids(): number[] {
    return this.slots.flatMap((s) => (s.worker.pid ? [s.worker.pid] : []));
  }

  /** Runs `op` on a free thread and resolves with its result. */
  run<T>(op: string, payload: unknown, opts: JobOptions = {}): Promise<T> {
    if (this.closed) return Promise.reject(new Error('The worker pool is closed.'));
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        id: this.nextId++,
        op,
        payload,
        opts,
        resolve: resolve as (v: unknown) => void,
        reject,
      };
      if (opts.signal?.aborted) return reject(opts.signal.reason);
      opts.signal?.addEventListener('abort', () => this.abandon(job, opts.signal?.reason), { once: true });
      this.waiting.push(job);
      this.dispatch();
    });
  }

  /** Starts every thread now (module loading included) so the first jobs do not pay for it. */
  async warm(): Promise<void> {
    const pings: Array<Promise<unknown>> = [];
    for (let i = this.slots.length; i < this.opts.size; i++)
      pings.push(this.run('ping', null, { timeoutMs: 120_000 }).catch(() => undefined));
    await Promise.all(pings);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.reject(new Error('The worker pool is closed.'));
    for (const s of this.slots.splice(0)) s.worker.terminate();
  }

  private dispatch(): void {
    while (this.waiting.length > 0) {
      const key = this.waiting[0].opts.affinity;
      const free = this.slots.filter((s) => s.job === null);
      let slot = key === undefined ? undefined : free.find((s) => s.affinity.includes(key));
      // Otherwise the free worker holding the least (its oldest state is the first to go).
      slot ??= free.sort((a, b) => a.affinity.length - b.affinity.length)[0];
      if (!slot && this.slots.length < this.opts.size) slot = this.spawn();
      if (!slot) return;
      const job = this.waiting.shift() as Job;
      this.start(slot, job);
    }
  }

  private spawn(): Slot {
    const worker = spawnWorker(this.opts.entry, {
      isolation: this.opts.isolation,
      maxHeapMb: this.opts.maxHeapMb,
    });
    worker.unref();
    const slot: Slot = {
      worker,
      job: null,
      abandoned: false,
      timer: null,
      progress: Promise.resolve(),
      affinity: [],
    };
    worker.onMessage((msg) => this.onMessage(slot, msg as Reply));
    worker.onEnd((end: WorkerEnd) => this.retire(slot, endError(end)));
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.abandoned = false;
    const key = job.opts.affinity;
    if (key !== undefined) {
      slot.affinity = [...slot.affinity.filter((k) => k !== key), key].slice(-AFFINITY_KEYS);
    }
    slot.progress = Promise.resolve();
    const timeout = job.opts.timeoutMs ?? this.opts.defaultTimeoutMs;
    slot.timer = setTimeout(() => {
      const seconds = timeout >= 10_000 ? String(Math.round(timeout / 1000)) : (timeout / 1000).toFixed(1);
      this.retire(
        slot,
        new WorkerJobError(`Parsing took longer than ${seconds}s and was stopped.`, 'timeout'),
      );
    }, timeout);
    slot.timer.unref();
    slot.worker.ref();
    slot.worker.post({ id: job.id, op: job.op, payload: job.payload });
  }

  private finish(slot: Slot): Job | null {
    const job = slot.job;
    slot.job = null;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.worker.unref();
    return job;
  }

  private onMessage(slot: Slot, msg: Reply): void {
    const job = slot.job;
    if (!job || msg.id !== job.id) return;
    if (msg.type === 'progress') {
      const report = job.opts.onProgress;
      if (!report || slot.abandoned) return;
      slot.progress = slot.progress
        .then(() => report(msg.fraction, msg.message))
        .catch((err: unknown) => this.abandon(job, err));
      return;
    }
    // Deliver after the progress reports already in flight, so the log keeps its order.
    void slot.progress.then(() => {
      if (slot.job !== job) return;
      const abandoned = slot.abandoned;
      this.finish(slot);
      if (abandoned) {
        this.dispatch();
        return;
      }
      if (msg.type === 'result') job.resolve(msg.value);
      else {
        const err = new Error(msg.message);
        err.name = msg.name;
        job.reject(err);
      }
      this.dispatch();
    });
  }

  /**
   * Stops a job: dequeued if waiting; if running, its caller is answered at once and the thread may
   * finish the job (result discarded) for a short grace period, after which it is terminated and
   * replaced — restarting a thread costs more than letting a nearly done parse end.
   */
  private abandon(job: Job, reason: unknown): void {
    const queued = this.waiting.indexOf(job);
    if (queued >= 0) {
      this.waiting.splice(queued, 1);
      job.reject(reason);
      return;
    }
    const slot = this.slots.find((s) => s.job === job);
    if (!slot || slot.abandoned) return;
    slot.abandoned = true;
    job.reject(reason);
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = setTimeout(() => this.retire(slot, reason), ABANDON_GRACE_MS);
    slot.timer.unref();
  }

  /** Terminates a slot's thread, failing its job with `reason`, and keeps the pool going. */
  private retire(slot: Slot, reason: unknown): void {
    const idx = this.slots.indexOf(slot);
    if (idx < 0) return;
    this.slots.splice(idx, 1);
    const abandoned = slot.abandoned;
    const job = this.finish(slot);
    slot.worker.terminate();
    if (job && !abandoned) job.reject(reason);
    if (!this.closed) this.dispatch();
  }
}

function endError(end: WorkerEnd): WorkerJobError {
  if (end.reason === 'memory') {
    return new WorkerJobError(
      'The document needs more memory to parse than the server allows, so parsing was stopped.',
      'memory',
    );
  }
  return new WorkerJobError(
    `The parser stopped unexpectedly while reading this file (${end.detail}).`,
    'crash',
  );
}

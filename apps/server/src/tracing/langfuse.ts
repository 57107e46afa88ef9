/**
 * The tracing port on Langfuse's public ingestion API (API.md §14). Built once per process by the
 * composition root. `start` looks up the tenant's keys (one indexed read) and answers the no-op
 * trace when there are none; the events of a traced request are queued per destination (host and
 * key pair) and posted in batches — when a batch is full, or after `flushIntervalMs` — from the
 * background, one request at a time per destination. Nothing here ever throws into or waits inside
 * a user's request: a host that is down or refuses the keys costs a warning in the log and the
 * batch, and a queue that grows past `maxQueued` drops its oldest events.
 */
import type { Db } from '../db/connection.js';
import type { OutboundPolicy } from '../net/index.js';
import type { Secrets } from '../security/secrets.js';
import { loadTracingKeys, type TracingKeys } from './keys.js';
import { sendBatch, type IngestionEvent } from './langfuse-api.js';
import { LangfuseTrace } from './observations.js';
import { NO_TRACE, type Trace, type TraceStart, type Tracing, type TracingStats } from './types.js';

export interface LangfuseTracingOptions {
  db: Db;
  secrets: Secrets;
  /** The outbound guard every request to a tracing host goes through. */
  policy: OutboundPolicy;
  warn?: (message: string) => void;
  /** Longest wait before queued events are sent (ms). */
  flushIntervalMs?: number;
  /** Events per request. */
  batchEvents?: number;
  /** Bytes per request (Langfuse accepts up to 3.5 MB). */
  batchBytes?: number;
  /** Events kept per destination while its host does not answer. */
  maxQueued?: number;
  timeoutMs?: number;
  /** Longest wait for the last batches at shutdown (ms). */
  closeWaitMs?: number;
}

interface Destination {
  key: string;
  keys: TracingKeys;
  queue: Array<{ event: IngestionEvent; bytes: number }>;
  sending: Promise<void>;
}

export function createLangfuseTracing(options: LangfuseTracingOptions): Tracing {
  return new LangfuseTracing(options);
}

class LangfuseTracing implements Tracing {
  private readonly destinations = new Map<string, Destination>();
  private timer: NodeJS.Timeout | null = null;
  private readonly counts = { sent: 0, failed: 0, dropped: 0 };
  private readonly o: Required<Omit<LangfuseTracingOptions, 'db' | 'secrets' | 'policy'>>;
  private closed = false;

  constructor(private readonly options: LangfuseTracingOptions) {
    this.o = {
      warn: options.warn ?? ((m) => console.warn(m)),
      flushIntervalMs: options.flushIntervalMs ?? 1000,
      batchEvents: options.batchEvents ?? 50,
      batchBytes: options.batchBytes ?? 3_000_000,
      maxQueued: options.maxQueued ?? 5000,
      timeoutMs: options.timeoutMs ?? 15_000,
      closeWaitMs: options.closeWaitMs ?? 5000,
    };
  }

  async start(tenantId: string, start: TraceStart): Promise<Trace> {
    if (this.closed) return NO_TRACE;
    try {
      const keys = await loadTracingKeys(this.options.db, this.options.secrets, tenantId);
      if (!keys) return NO_TRACE;
      const key = `${keys.host}\u0000${keys.publicKey}\u0000${keys.secretKey}`;
      return new LangfuseTrace((event) => this.enqueue(key, keys, event), start);
    } catch (err) {
      this.o.warn(`tracing: could not start a trace: ${err instanceof Error ? err.message : String(err)}`);
      return NO_TRACE;
    }
  }

  private enqueue(key: string, keys: TracingKeys, event: IngestionEvent): void {
    let dest = this.destinations.get(key);
    if (!dest) {
      dest = { key, keys, queue: [], sending: Promise.resolve() };
      this.destinations.set(key, dest);
    }
    let bytes: number;
    try {
      bytes = Buffer.byteLength(JSON.stringify(event));
    } catch {
      this.counts.dropped += 1;
      return;
    }
    if (dest.queue.length >= this.o.maxQueued) {
      dest.queue.shift();
      this.counts.dropped += 1;
    }
    dest.queue.push({ event, bytes });
    if (dest.queue.length >= this.o.batchEvents) void this.send(dest);
    else this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.o.flushIntervalMs);
    this.timer.unref();
  }

  /** Chains a drain of `dest` after the one in flight (one request at a time per destination). */
  private send(dest: Destination): Promise<void> {
    dest.sending = dest.sending.then(() => this.drain(dest)).catch(() => undefined);
    return dest.sending;
  }

  private async drain(dest: Destination): Promise<void> {
    while (dest.queue.length > 0) {
      const batch = this.take(dest);
      const outcome = await sendBatch(this.options.policy, dest.keys, batch, this.o.timeoutMs);
      if (!outcome.ok) {
        this.counts.failed += batch.length;
        this.o.warn(`tracing: ${batch.length} events for ${dest.keys.host} not sent: ${outcome.message}`);
        continue;
      }
      this.counts.sent += outcome.accepted;
      this.counts.failed += outcome.rejected;
      if (outcome.rejected > 0)
        this.o.warn(
          `tracing: ${dest.keys.host} refused ${outcome.rejected} of ${batch.length} events: ${outcome.firstError ?? ''}`,
        );
    }
    if (dest.queue.length === 0 && this.destinations.get(dest.key) === dest)
      this.destinations.delete(dest.key);
  }

  private take(dest: Destination): IngestionEvent[] {
    const batch: IngestionEvent[] = [];
    let bytes = 0;
    while (dest.queue.length > 0 && batch.length < this.o.batchEvents) {
      const next = dest.queue[0];
      if (batch.length > 0 && bytes + next.bytes > this.o.batchBytes) break;
      dest.queue.shift();
      batch.push(next.event);
      bytes += next.bytes;
    }
    return batch;
  }

  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    await Promise.all([...this.destinations.values()].map((d) => this.send(d)));
  }

  stats(): TracingStats {
    let queued = 0;
    for (const d of this.destinations.values()) queued += d.queue.length;
    return { ...this.counts, queued };
  }

  async close(): Promise<void> {
    const last = this.flush();
    this.closed = true;
    let wait: NodeJS.Timeout | undefined;
    await Promise.race([last, new Promise<void>((r) => (wait = setTimeout(r, this.o.closeWaitMs).unref()))]);
    clearTimeout(wait);
  }
}

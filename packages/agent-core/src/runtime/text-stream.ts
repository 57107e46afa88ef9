/**
 * The `content` of an LLM or Agent that feeds a Message (AGENTS.md §6.1 "Streaming"): the model call
 * runs in the background as soon as the component runs, its deltas are kept, and any number of
 * readers replay them — the Message streams them as `message` events, a text reference elsewhere
 * reads the whole answer. Reasoning deltas are kept apart from the answer text.
 */

export type StreamItem =
  | { kind: 'text'; text: string }
  | { kind: 'think'; text: string }
  | { kind: 'think_start' }
  | { kind: 'think_end' };

const BRAND = Symbol('TextStream');

export class TextStream implements AsyncIterable<StreamItem> {
  readonly [BRAND] = true;
  private readonly items: StreamItem[] = [];
  private finished = false;
  private failure: Error | null = null;
  private wake: (() => void)[] = [];
  private answer = '';
  readonly settled: Promise<void>;

  /** Starts `produce` at once; it pushes items and its promise settles the stream. */
  constructor(produce: (push: (item: StreamItem) => void) => Promise<void>) {
    this.settled = produce((item) => this.push(item)).then(
      () => this.close(null),
      (e: unknown) => this.close(e instanceof Error ? e : new Error(String(e))),
    );
  }

  private push(item: StreamItem) {
    if (this.finished) return;
    if (item.kind === 'text') {
      if (!item.text) return;
      this.answer += item.text;
    }
    this.items.push(item);
    this.notify();
  }

  private close(err: Error | null) {
    if (this.finished) return;
    this.finished = true;
    this.failure = err;
    this.notify();
  }

  private notify() {
    const w = this.wake;
    this.wake = [];
    for (const f of w) f();
  }

  get error(): Error | null {
    return this.failure;
  }

  get done(): boolean {
    return this.finished;
  }

  /** The answer text produced so far (reasoning excluded). */
  get partialText(): string {
    return this.answer;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<StreamItem> {
    let i = 0;
    for (;;) {
      while (i < this.items.length) yield this.items[i++];
      if (this.finished) {
        if (this.failure) throw this.failure;
        return;
      }
      await new Promise<void>((r) => this.wake.push(r));
    }
  }

  /** The whole answer (reasoning excluded); rejects when the producer failed. */
  async text(): Promise<string> {
    await this.settled;
    if (this.failure) throw this.failure;
    return this.answer;
  }
}

export function isTextStream(v: unknown): v is TextStream {
  return typeof v === 'object' && v !== null && (v as Record<symbol, unknown>)[BRAND] === true;
}

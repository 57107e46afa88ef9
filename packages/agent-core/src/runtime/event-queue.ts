/** A single-consumer async queue: the run pushes events, the caller iterates them as they come. */
export class EventQueue<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private closed = false;
  private waiter: (() => void) | null = null;
  private consumed = false;

  push(item: T) {
    if (this.closed) return;
    this.items.push(item);
    this.wake();
  }

  close() {
    this.closed = true;
    this.wake();
  }

  private wake() {
    const w = this.waiter;
    this.waiter = null;
    w?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.consumed) throw new Error('The run events can be iterated only once');
    this.consumed = true;
    for (;;) {
      if (this.items.length) {
        const batch = this.items;
        this.items = [];
        for (const item of batch) yield item;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((r) => (this.waiter = r));
    }
  }
}

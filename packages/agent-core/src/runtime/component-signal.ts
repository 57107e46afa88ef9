/**
 * A component's abort signal, created only when the component asks for it (most components never
 * do): it follows the run's signal and can be aborted on its own at the component's time limit.
 */
export class ComponentSignal {
  private controller: AbortController | null = null;
  private reason: unknown = undefined;
  private detach: (() => void) | null = null;

  constructor(private readonly run: AbortSignal) {}

  get signal(): AbortSignal {
    if (!this.controller) {
      const controller = new AbortController();
      this.controller = controller;
      if (this.reason !== undefined) controller.abort(this.reason);
      else if (this.run.aborted) controller.abort(this.run.reason);
      else {
        const onAbort = () => controller.abort(this.run.reason);
        this.run.addEventListener('abort', onAbort, { once: true });
        this.detach = () => this.run.removeEventListener('abort', onAbort);
      }
    }
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.reason !== undefined || this.run.aborted;
  }

  abort(reason: unknown) {
    this.reason = reason;
    this.controller?.abort(reason);
  }

  /** Stop following the run's signal (the component is done and holds no live stream). */
  release() {
    this.detach?.();
    this.detach = null;
  }
}

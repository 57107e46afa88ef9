/**
 * An agent run as a trace (API.md §14): the run's events open and close one span per component
 * (its inputs, outputs, error and note), the streamed message text is the trace's output, and the
 * outcome (status, token usage, error) ends it. The model calls and retrievals of the run are
 * recorded by the traced ports (services.portsFor) under the same trace.
 */
import { isErrorEvent, type RunEvent, type RunOutcome } from '@lectern/agent-core';
import type { Observation, Trace } from '../tracing/types.js';

export class RunTrace {
  private readonly open = new Map<string, Observation>();
  private answer = '';

  constructor(private readonly trace: Trace) {}

  get traced(): boolean {
    return this.trace.id !== '';
  }

  observe(e: RunEvent): void {
    if (!this.traced || isErrorEvent(e)) return;
    if (e.event === 'node_started') {
      const d = e.data;
      this.open.get(d.component_id)?.end({ error: 'Started again before it finished.' });
      this.open.set(
        d.component_id,
        this.trace.span(d.component_name || d.component_id, undefined, {
          component_id: d.component_id,
          component_type: d.component_type,
        }),
      );
    } else if (e.event === 'node_finished') {
      const d = e.data;
      const span =
        this.open.get(d.component_id) ??
        this.trace.span(d.component_name || d.component_id, d.inputs, { component_id: d.component_id });
      this.open.delete(d.component_id);
      span.end({
        output: { inputs: d.inputs, outputs: d.outputs },
        error: d.error ?? undefined,
        metadata: { elapsed_time: d.elapsed_time, ...(d.note ? { note: d.note } : {}) },
      });
    } else if (e.event === 'message') {
      this.answer += e.data.content;
    }
  }

  finish(outcome: RunOutcome): void {
    this.endOpen(outcome.error ?? 'The run ended before this component finished.');
    const failed = outcome.status === 'error' || outcome.status === 'cancelled';
    this.trace.end({
      output: this.answer,
      error: failed ? (outcome.error ?? outcome.status) : undefined,
      metadata: { status: outcome.status, usage: outcome.usage },
    });
  }

  /** The run stopped without an outcome (its results could not be written, the process is closing). */
  abandon(reason: string): void {
    this.endOpen(reason);
    this.trace.end({ output: this.answer, error: reason });
  }

  private endOpen(reason: string): void {
    for (const span of this.open.values()) span.end({ error: reason });
    this.open.clear();
  }
}

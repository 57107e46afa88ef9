/**
 * Server-sent events exactly as API.md §1.1/§9 frame them: `data:` immediately followed by one JSON
 * document (no space), then a blank line. The writer owns the raw socket once opened (the reply is
 * hijacked), copies the headers other hooks set (CORS) and reports a client that went away.
 */
import type { FastifyReply } from 'fastify';

export const SSE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-control': 'no-cache',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/** One event frame. */
export function sseFrame(payload: unknown): string {
  return `data:${JSON.stringify(payload)}\n\n`;
}

/** The terminator every stream ends with. */
export const SSE_DONE = sseFrame({ code: 0, message: '', data: true });

/** The error event of API.md §9 step 4 (followed by the terminator). */
export function sseErrorFrame(message: string): string {
  return sseFrame({ code: 500, message, data: { answer: `**ERROR**: ${message}`, reference: [] } });
}

/** A data event wrapped in the success envelope. */
export function sseDataFrame(data: unknown): string {
  return sseFrame({ code: 0, message: '', data });
}

export class SseWriter {
  private opened = false;
  private ended = false;
  private readonly abort = new AbortController();

  constructor(private readonly reply: FastifyReply) {
    reply.raw.on('close', () => {
      if (!this.ended) this.abort.abort(new Error('client closed the stream'));
    });
  }

  /** Aborted when the client disconnects before the stream ended. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  get clientGone(): boolean {
    return this.abort.signal.aborted;
  }

  /** Whether the stream has started (headers sent): after that, refusals can only be events. */
  get started(): boolean {
    return this.opened;
  }

  open(): void {
    if (this.opened) return;
    this.opened = true;
    this.reply.hijack();
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(this.reply.getHeaders())) {
      if (v !== undefined) headers[k] = Array.isArray(v) ? v : String(v);
    }
    this.reply.raw.writeHead(200, { ...headers, ...SSE_HEADERS });
    this.reply.raw.flushHeaders?.();
  }

  /** Writes one frame; false once the client is gone. */
  write(frame: string): boolean {
    if (!this.opened) this.open();
    if (this.ended || this.clientGone) return false;
    this.reply.raw.write(frame);
    return true;
  }

  data(data: unknown): boolean {
    return this.write(sseDataFrame(data));
  }

  error(message: string): boolean {
    return this.write(sseErrorFrame(message));
  }

  /** Writes the terminator (unless the stream's format has none: `null`) and closes the response. */
  end(terminator: string | null = SSE_DONE): void {
    this.close(terminator ?? '');
  }

  /** Closes the response after `last` (another route's terminator), or with none (agent runs). */
  close(last = ''): void {
    if (!this.opened) this.open();
    if (this.ended) return;
    if (!this.clientGone && last) this.reply.raw.write(last);
    this.ended = true;
    this.reply.raw.end();
  }
}

/** Parses an SSE body into its JSON events (tests and the bench read streams with it). */
export function parseSse(body: string): unknown[] {
  return body
    .split('\n\n')
    .filter((block) => block.startsWith('data:'))
    .map((block) => JSON.parse(block.slice('data:'.length)) as unknown);
}

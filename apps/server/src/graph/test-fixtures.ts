/**
 * Test fixtures of the graph and RAPTOR cores (used by their *.test.ts files and the benches): an
 * in-process chat model behind the injected port, answering through a script, with an optional fixed
 * latency, that records every call and how many were in flight at once. (Route-level tests of the jobs
 * use the HTTP stand-in server instead; these cores only ever see the port.)
 */
import type { ChatAnswer, ChatCallOptions, ChatTurn, GraphChatModel } from './ports.js';
import { COMPLETION_DELIMITER as DONE, RECORD_DELIMITER as SEP, TUPLE_DELIMITER as D } from './records.js';

export type Script = (messages: ChatTurn[], options?: ChatCallOptions) => string | Promise<string>;

export interface CallSpan {
  start: number;
  end: number;
}

export class ScriptedModel implements GraphChatModel {
  calls: ChatTurn[][] = [];
  spans: CallSpan[] = [];
  inFlight = 0;
  maxInFlight = 0;

  constructor(
    private readonly script: Script,
    private readonly latencyMs = 0,
  ) {}

  async complete(messages: ChatTurn[], options?: ChatCallOptions): Promise<ChatAnswer> {
    this.calls.push(messages.map((m) => ({ ...m })));
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    const start = performance.now();
    try {
      if (this.latencyMs > 0) await sleep(this.latencyMs, options?.signal);
      options?.signal?.throwIfAborted();
      const text = await this.script(messages, options);
      const prompt = messages.reduce((n, m) => n + m.content.length, 0);
      return {
        text,
        usage: { promptTokens: prompt, completionTokens: text.length, totalTokens: prompt + text.length },
      };
    } finally {
      this.inFlight--;
      this.spans.push({ start, end: performance.now() });
    }
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The user text of an extraction prompt (between "Text:" and "Output:"). */
export function chunkTextOf(messages: ChatTurn[]): string {
  const user = messages.find((m) => m.role === 'user')?.content ?? '';
  const m = /Text:\n([\s\S]*)\nOutput:$/.exec(user);
  return m ? m[1] : user;
}

export const entity = (name: string, type: string, desc: string) =>
  `("entity"${D}${name}${D}${type}${D}${desc})`;
export const relation = (a: string, b: string, desc: string, kw: string, strength: number) =>
  `("relationship"${D}${a}${D}${b}${D}${desc}${D}${kw}${D}${strength})`;
export const records = (...recs: string[]) => `${recs.join(`${SEP}\n`)}\n${DONE}`;

/**
 * A deterministic "extractor" model: every capitalized word of the chunk is a PERSON entity, and each
 * adjacent pair of them is related. Good enough to exercise merging across chunks and documents.
 */
export const capitalizedWordsScript: Script = (messages) => {
  const text = chunkTextOf(messages);
  const names = [...new Set(text.match(/\b[A-Z][A-Za-z0-9]+\b/g) ?? [])];
  const recs = names.map((n) => entity(n, 'PERSON', `${n} appears in: ${text.slice(0, 40)}`));
  for (let i = 0; i + 1 < names.length; i++) {
    recs.push(relation(names[i], names[i + 1], `${names[i]} meets ${names[i + 1]}`, 'meeting', 2));
  }
  return records(...recs);
};

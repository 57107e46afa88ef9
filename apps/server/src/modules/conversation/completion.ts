/**
 * Runs one completion for the web API (`/v1/conversation/completion`) and the legacy chat API
 * (`/v1/api/completion`): frames the answer events as API.md §9 says (SSE or one envelope).
 * With `store` (the web conversation) the question is saved before the model is asked, so a reload
 * mid-answer still shows it; a client that goes away (reload, Stop, closed tab) keeps the question
 * and the answer streamed so far; an error or a timeout puts the conversation back as it was (the
 * error event tells the client). Without `store`, `persist` runs after a complete answer only.
 */
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { isReadable, readableMessage } from '../../chat/errors.js';
import { answerQuestion, type AnswerOptions } from '../../chat/answer.js';
import { presentReference, type ReferenceFormat } from '../../chat/reference.js';
import type { ChatServices } from '../../chat/services.js';
import { SseWriter } from '../../chat/sse.js';
import type { AnswerEvent, AnswerResult, ChatMessage, DialogConfig } from '../../chat/types.js';
import { ApiError, errors, ok } from '../../http/envelope.js';
import type { BodyOf, contract } from '@lectern/shared';

type CompletionBody = BodyOf<typeof contract.conversation.completion>;

export interface CompletionRun {
  dialog: DialogConfig;
  /** The messages to answer (system and leading assistant messages already dropped). */
  messages: ChatMessage[];
  messageId: string;
  sessionId: string;
  format: ReferenceFormat;
  stream: boolean;
  options: AnswerOptions;
  /** Called once, after a complete answer; its failure is reported like any other. */
  persist?: (result: AnswerResult, answer: ChatMessage) => Promise<void>;
  /** Saving the conversation as it goes (see the file comment). */
  store?: ConversationStore;
}

export interface ConversationStore {
  /** Before the model is asked: the request's messages become the conversation. */
  question(): Promise<void>;
  /** The client went away: the answer streamed so far (may be empty: the question alone stays). */
  partial(answer: ChatMessage | null): Promise<void>;
  /** The answer failed: the conversation as it was before the request. */
  restore(): Promise<void>;
}

/** The stored text of the deltas streamed so far (think markers as in `AnswerResult.content`). */
class StreamedText {
  private text = '';
  add(ev: AnswerEvent): void {
    if (ev.final) return;
    if (ev.start_to_think) this.text += '<think>';
    else if (ev.end_to_think) this.text += '</think>';
    else this.text += ev.answer;
  }
  message(run: CompletionRun): ChatMessage | null {
    if (this.text.trim() === '') return null;
    return { role: 'assistant', content: this.text, created_at: Date.now() / 1000, id: run.messageId };
  }
}

/** A readable message for any failure; details of unexpected ones go to the log only. */
export function errorMessage(err: unknown, log?: FastifyBaseLogger): string {
  if (!isReadable(err)) log?.error({ err }, 'chat completion failed');
  return readableMessage(err);
}

function frame(ev: AnswerEvent, run: CompletionRun) {
  const reference = ev.final ? presentReference(ev.reference, run.format) : { chunks: [] };
  return { ...ev, reference, id: run.messageId, session_id: run.sessionId };
}

function answerMessage(run: CompletionRun, result: AnswerResult): ChatMessage {
  return { role: 'assistant', content: result.content, created_at: Date.now() / 1000, id: run.messageId };
}

/** Streams the answer over SSE (stream mode) or answers with one envelope (stream: false). */
export async function runCompletion(svc: ChatServices, reply: FastifyReply, run: CompletionRun) {
  if (!run.stream) {
    let last: AnswerEvent | undefined;
    let result: AnswerResult;
    let answer: ChatMessage;
    try {
      await run.store?.question();
      const gen = answerQuestion(svc, run.dialog, run.messages, { ...run.options, sessionId: run.sessionId });
      let step = await gen.next();
      while (!step.done) {
        last = step.value;
        step = await gen.next();
      }
      result = step.value;
      answer = answerMessage(run, result);
      await run.persist?.(result, answer);
    } catch (err) {
      await restoreQuietly(run, reply.log);
      if (err instanceof ApiError) throw err;
      throw errors.exception(errorMessage(err, reply.log), false);
    }
    return ok({
      answer: result.content,
      reference: presentReference(result.reference, run.format),
      audio_binary: last?.audio_binary ?? null,
      prompt: result.prompt,
      created_at: answer.created_at,
      id: run.messageId,
      session_id: run.sessionId,
    });
  }

  const sse = new SseWriter(reply);
  sse.open();
  const streamed = new StreamedText();
  try {
    await run.store?.question();
    const gen = answerQuestion(svc, run.dialog, run.messages, {
      ...run.options,
      sessionId: run.sessionId,
      signal: sse.signal,
    });
    let step = await gen.next();
    while (!step.done) {
      if (!sse.data(frame(step.value, run))) {
        await gen.return(undefined as unknown as AnswerResult);
        break;
      }
      streamed.add(step.value);
      step = await gen.next();
    }
    if (step.done && !sse.clientGone) await run.persist?.(step.value, answerMessage(run, step.value));
    else if (sse.clientGone) await run.store?.partial(streamed.message(run));
  } catch (err) {
    // A model aborted because the client left fails too: what was streamed is kept, not undone.
    if (sse.clientGone) await partialQuietly(run, streamed, reply.log);
    else {
      await restoreQuietly(run, reply.log);
      sse.error(errorMessage(err, reply.log));
    }
  }
  sse.end();
  return reply;
}

async function restoreQuietly(run: CompletionRun, log: FastifyBaseLogger): Promise<void> {
  await run.store?.restore().catch((err: unknown) => log.error({ err }, 'restoring a conversation failed'));
}

async function partialQuietly(run: CompletionRun, streamed: StreamedText, log: FastifyBaseLogger) {
  await run.store
    ?.partial(streamed.message(run))
    .catch((err: unknown) => log.error({ err }, 'saving a partial answer failed'));
}

const KNOWN_FIELDS = new Set([
  'conversation_id',
  'messages',
  'stream',
  'llm_id',
  'temperature',
  'top_p',
  'frequency_penalty',
  'presence_penalty',
  'max_tokens',
  'quote',
  'doc_ids',
]);

/** Request values for custom `{var}`s of the system prompt: every field the route does not use. */
export function parameterValues(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([k]) => !KNOWN_FIELDS.has(k)));
}

/** Attachment document ids: the last message's `doc_ids` and the body's (list or comma string). */
export function attachmentIds(body: CompletionBody, last: ChatMessage): string[] {
  const fromBody = typeof body.doc_ids === 'string' ? body.doc_ids.split(',') : (body.doc_ids ?? []);
  return [...new Set([...(last.doc_ids ?? []), ...fromBody].map((d) => d.trim()).filter(Boolean))];
}

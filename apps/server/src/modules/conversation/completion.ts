/**
 * Runs one completion for the web API (`/v1/conversation/completion`) and the legacy chat API
 * (`/v1/api/completion`): frames the answer events as API.md §9 says (SSE or one envelope), and
 * persists only after a successful answer — an error, a timeout, a broken model stream or a client
 * that went away leave the conversation exactly as it was (the error event tells the client).
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
      const gen = answerQuestion(svc, run.dialog, run.messages, run.options);
      let step = await gen.next();
      while (!step.done) {
        last = step.value;
        step = await gen.next();
      }
      result = step.value;
      answer = answerMessage(run, result);
      await run.persist?.(result, answer);
    } catch (err) {
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
  try {
    const gen = answerQuestion(svc, run.dialog, run.messages, { ...run.options, signal: sse.signal });
    let step = await gen.next();
    while (!step.done) {
      if (!sse.data(frame(step.value, run))) {
        await gen.return(undefined as unknown as AnswerResult);
        break;
      }
      step = await gen.next();
    }
    if (step.done && !sse.clientGone) await run.persist?.(step.value, answerMessage(run, step.value));
  } catch (err) {
    sse.error(errorMessage(err, reply.log));
  }
  sse.end();
  return reply;
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

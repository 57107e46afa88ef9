/**
 * OpenAI-compatible chat completions (API.md §17): `POST /api/v1/chats_openai/<chat_id>/chat/completions`
 * answers with OpenAI's own objects — `chat.completion`, or streamed `chat.completion.chunk`s ending
 * with `data:[DONE]` — over the same answer pipeline as every chat. `model` is accepted but the chat's
 * own model answers. References come with `extra_body.reference` (each chunk with its document's
 * metadata under `document_metadata` when `reference_metadata.include`, only the listed `fields` when
 * given); `extra_body.metadata_condition` filters retrieval by document metadata, with the chat's own
 * `meta_data_filter`.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { contract } from '@lectern/shared';
import type { ServerContext } from '../context.js';
import { answerQuestion } from '../../chat/answer.js';
import { presentReference } from '../../chat/reference.js';
import { SseWriter } from '../../chat/sse.js';
import type { AnswerResult, ChatMessage } from '../../chat/types.js';
import { ApiError, errors } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { countTokens } from '../../ingest/tokens.js';
import { parseJson } from '../../db/json.js';
import { fromMetadataCondition } from '../../search/metadata-conditions.js';
import { newId } from '../../util/ids.js';
import { dialogConfigOf } from '../dialog/service.js';
import { errorMessage } from '../conversation/completion.js';
import { PUBLIC } from './auth.js';
import { ownChat } from './chats.js';

const c = contract.publicApi;

export interface ExtraBody {
  reference?: boolean;
  reference_metadata?: { include?: boolean; fields?: string[] };
  /** `{logic, conditions:[{name, comparison_operator, value}]}`: restricts retrieval by document metadata. */
  metadata_condition?: unknown;
}

/** The request's messages checked as API.md §17 says; system messages are kept for the prompt. */
export function checkedMessages(raw: unknown): ChatMessage[] {
  if (!Array.isArray(raw) || raw.length === 0) throw errors.data('You have to provide messages.');
  const messages = raw.map((m) => {
    const { role, content } = (m ?? {}) as { role?: unknown; content?: unknown };
    const text = typeof content === 'string' ? content : Array.isArray(content) ? partsText(content) : '';
    return { role: String(role ?? ''), content: text } as ChatMessage;
  });
  if (messages[messages.length - 1].role !== 'user')
    throw errors.data('The last content of this conversation is not from user.');
  return messages.filter((m) => m.role === 'user' || m.role === 'assistant');
}

/** OpenAI content parts (`[{type:"text", text}]`) as plain text. */
function partsText(parts: unknown[]): string {
  return parts
    .map((p) =>
      p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string'
        ? (p as { text: string }).text
        : '',
    )
    .join('');
}

/** `<think>…</think>` of reasoning models split from the answer. */
export function splitThinking(content: string): { reasoning: string | null; answer: string } {
  const m = /^\s*<think>([\s\S]*?)<\/think>\s*/.exec(content);
  return m ? { reasoning: m[1], answer: content.slice(m[0].length) } : { reasoning: null, answer: content };
}

/** Token counts: the model's total when it reported one, the answer counted with cl100k. */
function usageOf(result: AnswerResult, answer: string) {
  const completion = countTokens(answer);
  const prompt = result.tokens > completion ? result.tokens - completion : countTokens(result.prompt);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** Reference chunks as asked: with `reference_metadata.include`, each carries its `document_metadata`. */
export async function askedChunks(ctx: ServerContext, given: object[], extra: ExtraBody): Promise<object[]> {
  if (!extra.reference_metadata?.include) return given;
  const chunks = given as Array<Record<string, unknown>>;
  const docIds = [...new Set(chunks.map((ch) => String(ch.document_id ?? '')).filter(Boolean))];
  const rows = docIds.length
    ? await ctx.db.kysely
        .selectFrom('document')
        .select(['id', 'meta_fields'])
        .where('id', 'in', docIds)
        .execute()
    : [];
  const fields = Array.isArray(extra.reference_metadata.fields)
    ? extra.reference_metadata.fields.filter((f): f is string => typeof f === 'string')
    : null;
  const metaOf = new Map(
    rows.map((r) => {
      const meta = parseJson<Record<string, unknown>>(r.meta_fields, {});
      const kept = fields ? Object.entries(meta).filter(([k]) => fields.includes(k)) : Object.entries(meta);
      return [r.id, Object.fromEntries(kept)];
    }),
  );
  return chunks.map((ch) => ({ ...ch, document_metadata: metaOf.get(String(ch.document_id ?? '')) ?? {} }));
}

function referenceChunks(ctx: ServerContext, result: AnswerResult, extra: ExtraBody) {
  const ref = presentReference(result.reference, 'web') as { chunks?: Array<Record<string, unknown>> };
  return askedChunks(ctx, ref?.chunks ?? [], extra);
}

/** `extra_body` checked as API.md §17 says (not an object → 102 "extra_body must be an object."). */
export function extraOf(raw: unknown): ExtraBody {
  if (raw !== undefined && (raw === null || typeof raw !== 'object' || Array.isArray(raw)))
    throw errors.data('extra_body must be an object.');
  return (raw ?? {}) as ExtraBody;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** OpenAI's `chat.completion` object (the non-streamed answer). */
export function completionObject(a: {
  id: string;
  created: number;
  model: string;
  answer: string;
  reasoning: string | null;
  reference?: object[];
  usage: Usage;
}) {
  return {
    id: a.id,
    object: 'chat.completion' as const,
    created: a.created,
    model: a.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant' as const,
          content: a.answer,
          ...(a.reasoning !== null ? { reasoning_content: a.reasoning } : {}),
          ...(a.reference ? { reference: a.reference } : {}),
        },
        finish_reason: 'stop',
      },
    ],
    usage: a.usage,
  };
}

/** A stream of OpenAI's `chat.completion.chunk` objects ending with `data:[DONE]`. */
export class ChunkStream {
  readonly sse: SseWriter;
  constructor(
    reply: FastifyReply,
    private readonly head: { id: string; created: number; model: string },
  ) {
    this.sse = new SseWriter(reply);
    this.sse.open();
  }

  chunk(delta: Record<string, unknown>, finish: string | null, usage: Usage | null = null): boolean {
    return this.sse.write(
      `data:${JSON.stringify({
        ...this.head,
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
        usage,
      })}\n\n`,
    );
  }

  fail(message: string): void {
    this.sse.write(`data:${JSON.stringify({ error: { message, type: 'server_error' } })}\n\n`);
  }

  end(): void {
    this.sse.end('data:[DONE]\n\n');
  }
}

export async function openaiRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.post<{ Params: { chat_id: string } }>(
    '/api/v1/chats_openai/:chat_id/chat/completions',
    PUBLIC,
    async (req, reply: FastifyReply) => {
      const body = validate(c.chatsOpenai.body, req.body ?? {});
      const extra = extraOf(body.extra_body);
      const chat = await ownChat(ctx, req, req.params.chat_id);
      const messages = checkedMessages(body.messages);
      const dialog = dialogConfigOf(chat);
      const metaFilter = fromMetadataCondition(extra.metadata_condition);
      const id = `chatcmpl-${newId()}`;
      const created = Math.floor(Date.now() / 1000);
      const model = typeof body.model === 'string' && body.model ? body.model : dialog.llm_id;

      if (body.stream === false) {
        let result: AnswerResult;
        try {
          const gen = answerQuestion(ctx.chat, dialog, messages, { metaFilter });
          let step = await gen.next();
          while (!step.done) step = await gen.next();
          result = step.value;
        } catch (err) {
          if (err instanceof ApiError) throw err;
          throw errors.exception(errorMessage(err, reply.log), false);
        }
        const { reasoning, answer } = splitThinking(result.content);
        return reply.type('application/json').send(
          completionObject({
            id,
            created,
            model,
            answer,
            reasoning,
            reference: extra.reference ? await referenceChunks(ctx, result, extra) : undefined,
            usage: usageOf(result, answer),
          }),
        );
      }

      const out = new ChunkStream(reply, { id, created, model });
      const chunk = out.chunk.bind(out);
      let thinking = false;
      let answerText = '';
      try {
        const gen = answerQuestion(ctx.chat, dialog, messages, { signal: out.sse.signal, metaFilter });
        let step = await gen.next();
        chunk({ role: 'assistant', content: '' }, null);
        while (!step.done) {
          const ev = step.value;
          if (ev.start_to_think) thinking = true;
          else if (ev.end_to_think) thinking = false;
          else if (!ev.final && ev.answer) {
            if (thinking) chunk({ reasoning_content: ev.answer }, null);
            else {
              answerText += ev.answer;
              chunk({ content: ev.answer }, null);
            }
          }
          if (out.sse.clientGone) {
            await gen.return(undefined as unknown as AnswerResult);
            break;
          }
          step = await gen.next();
        }
        if (step.done) {
          const result = step.value;
          const { answer } = splitThinking(result.content);
          // An answer given whole (the empty response) arrives only in the result.
          const rest = answer.startsWith(answerText) ? answer.slice(answerText.length) : '';
          chunk(
            {
              content: rest,
              ...(extra.reference ? { reference: await referenceChunks(ctx, result, extra) } : {}),
            },
            'stop',
            usageOf(result, answer),
          );
        }
      } catch (err) {
        out.fail(errorMessage(err, reply.log));
      }
      out.end();
      return reply;
    },
  );
}

/**
 * `POST /api/v1/agents_openai/<agent_id>/chat/completions` (API.md §17): an agent turn answered with
 * OpenAI's objects, exactly as `chats_openai` answers a chat (its presenters): the last user message
 * is the question of a session turn (`session_id` continues a session, else a new one), the run's
 * `message` deltas become `chat.completion.chunk`s (think markers → `reasoning_content`), and the
 * reference chunks of its `message_end` come with `extra_body.reference`. `model` defaults to the
 * agent's id.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isErrorEvent } from '@lectern/agent-core';
import { contract } from '@lectern/shared';
import type { ServerContext } from '../context.js';
import { authOf } from '../../http/auth.js';
import { ApiError } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { countTokens } from '../../ingest/tokens.js';
import { newId } from '../../util/ids.js';
import { collectRun, startSessionTurn } from '../canvas/session-run.js';
import { ownAgent } from './agents.js';
import { PUBLIC } from './auth.js';
import {
  askedChunks,
  checkedMessages,
  ChunkStream,
  completionObject,
  extraOf,
  splitThinking,
  type Usage,
} from './openai.js';

const c = contract.publicAgents;

function usage(question: string, answer: string): Usage {
  const prompt = countTokens(question);
  const completion = countTokens(answer);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

type Chunks = object[];

export async function agentsOpenaiRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.post<{ Params: { agent_id: string } }>(
    '/api/v1/agents_openai/:agent_id/chat/completions',
    PUBLIC,
    async (req, reply: FastifyReply) => {
      const body = validate(c.agentsOpenai.body, req.body ?? {});
      const extra = extraOf(body.extra_body);
      const user = authOf(req).user;
      const canvas = await ownAgent(ctx, user.id, req.params.agent_id);
      const messages = checkedMessages(body.messages);
      const question = messages[messages.length - 1].content;
      const { live } = await startSessionTurn(ctx, canvas, {
        query: question,
        files: [],
        inputs: {},
        userId: user.id,
        sessionId: body.session_id || undefined,
      });
      const id = `chatcmpl-${newId()}`;
      const created = Math.floor(Date.now() / 1000);
      const model = typeof body.model === 'string' && body.model ? body.model : canvas.id;

      if (body.stream === false) {
        const run = await collectRun(live);
        if (run.error) throw new ApiError(run.error.code, run.error.message);
        const { reasoning, answer } = splitThinking(run.content);
        return reply.type('application/json').send(
          completionObject({
            id,
            created,
            model,
            answer,
            reasoning,
            reference: extra.reference
              ? await askedChunks(ctx, Object.values(run.reference.chunks) as Chunks, extra)
              : undefined,
            usage: usage(question, answer),
          }),
        );
      }

      const out = new ChunkStream(reply, { id, created, model });
      out.chunk({ role: 'assistant', content: '' }, null);
      let thinking = false;
      let answer = '';
      let chunks: Chunks = [];
      let failed = false;
      for await (const e of live.feed.follow()) {
        if (isErrorEvent(e)) {
          out.fail(e.message);
          failed = true;
          continue;
        }
        if (e.event === 'message_end' && e.data.reference)
          chunks = [...chunks, ...Object.values(e.data.reference.chunks)];
        if (e.event !== 'message') continue;
        if (e.data.start_to_think) thinking = true;
        const piece = e.data.content;
        let sent = true;
        if (piece && thinking) sent = out.chunk({ reasoning_content: piece }, null);
        else if (piece) {
          answer += piece;
          sent = out.chunk({ content: piece }, null);
        }
        if (e.data.end_to_think) thinking = false;
        if (!sent) break; // the client left; the run goes on and its session is saved
      }
      if (!failed)
        out.chunk(
          { content: '', ...(extra.reference ? { reference: await askedChunks(ctx, chunks, extra) } : {}) },
          'stop',
          usage(question, answer),
        );
      out.end();
      return reply;
    },
  );
}

/**
 * Traces sent to the Langfuse stand-in (API.md §14): a chat completion of a tenant with tracing keys
 * sends one trace with its retrieval span (question embedding and rerank under it) and the model
 * call as a generation with its input, output, token usage and times; an agent run sends one trace
 * with its component spans and model calls; a tenant without keys sends nothing; a tracing host
 * that is down changes nothing for the user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import {
  startLangfuseStandin,
  startOpenAIStandin,
  startRerankStandin,
  type ChatScript,
  type LangfuseStandin,
  type OpenAIChatBody,
  type Standin,
} from '../../../test/standins/index.js';
import {
  CHAT_MODEL,
  createConversation,
  createDialog,
  createKb,
  EMBD_MODEL,
  seedChunks,
  wireModels,
} from '../../chat/test-fixtures.js';
import { addModel } from '../chunk/test-support.js';
import {
  editorDsl,
  llmParams,
  postRun,
  saveCanvas,
  simpleFlow,
  toolAwareReply,
  trail,
} from '../canvas/test-support.js';

const PK = 'pk-lf-traces';
const SK = 'sk-lf-traces-secret';

let server: TestServer;
let llm: Standin;
let rr: Standin;
let lf: LangfuseStandin;
let traced: TestUser;
let plain: TestUser;
let dialogId: string;
let kbOfTraced: string;
let reply: (b: OpenAIChatBody) => string | ChatScript = () => 'Paris is the capital of France.';

type Body = Record<string, unknown>;

async function setup(user: TestUser, withRerank: boolean): Promise<string> {
  await wireModels(server, user, llm);
  const kbId = await createKb(server, user, 'Geography');
  if (withRerank) kbOfTraced = kbId;
  // Chunk ids hash content and document: each tenant's documents get their own names.
  await seedChunks(server, kbId, user.id, [
    { content: 'Paris is the capital of France and its largest city.', doc: `france-${user.id}.txt` },
    { content: 'Berlin is the capital of Germany.', doc: `germany-${user.id}.txt` },
  ]);
  const rerankId = withRerank
    ? await addModel(server, user, {
        llm_factory: 'Xinference',
        llm_name: 'ranker',
        model_type: 'rerank',
        api_base: rr.url,
      })
    : '';
  const dialog = await createDialog(server, user, {
    name: 'Geo',
    kb_ids: [kbId],
    similarity_threshold: 0.1,
    rerank_id: rerankId,
    prompt_config: { system: 'Answer from the knowledge.\n{knowledge}', empty_response: 'Nothing.' },
  });
  return dialog.id;
}

async function complete(user: TestUser, dialog: string, question: string) {
  const conv = await createConversation(server, user, dialog);
  const res = await call<{ answer: string }>(server, '/v1/conversation/completion', {
    token: user.token,
    body: { conversation_id: conv, stream: false, messages: [{ role: 'user', content: question, id: 'q1' }] },
  });
  return { conv, res };
}

beforeAll(async () => {
  llm = await startOpenAIStandin({ reply: (b) => reply(b) });
  rr = await startRerankStandin({ flavor: 'jina' });
  lf = await startLangfuseStandin({ publicKey: PK, secretKey: SK });
  server = await startTestServer({ MODEL_MAX_RETRIES: '0' });
  traced = await newUser(server, 'traced');
  plain = await newUser(server, 'plain');
  dialogId = await setup(traced, true);
  const set = await call(server, '/v1/langfuse/api_key', {
    token: traced.token,
    body: { secret_key: SK, public_key: PK, host: lf.origin },
  });
  expect(set.body.code).toBe(0);
});

afterAll(async () => {
  await server?.close();
  await Promise.all([llm?.close(), rr?.close(), lf?.close()]);
});

describe('tracing to Langfuse', () => {
  it('a chat completion sends one trace: retrieval span (embedding, rerank) and the generation with usage', async () => {
    const before = lf.traces().length;
    const { conv, res } = await complete(traced, dialogId, 'What is the capital of France?');
    expect(res.body.code).toBe(0);
    await server.ctx.tracing.flush();

    const traces = lf.traces().slice(before);
    expect(traces).toHaveLength(1);
    const trace = traces[0];
    expect(trace).toMatchObject({
      name: 'chat',
      input: 'What is the capital of France?',
      output: res.body.data!.answer,
      sessionId: conv,
      metadata: { dialog_id: dialogId },
    });
    const obs = lf.observations(trace.id);
    const retrieval = obs.find((o) => o.name === 'retrieval')!;
    expect(retrieval).toMatchObject({ type: 'span-create', level: 'DEFAULT' });
    expect(retrieval.input).toMatchObject({ question: 'What is the capital of France?' });
    const chunks = (retrieval.output as { chunks: Body[] }).chunks;
    expect(chunks.some((c) => String(c.content).includes('Paris'))).toBe(true);

    const underRetrieval = obs.filter((o) => o.parentObservationId === retrieval.id);
    const embed = underRetrieval.find((o) => o.name === 'embed question')!;
    expect(embed).toMatchObject({ type: 'generation-create', model: EMBD_MODEL });
    const rerank = underRetrieval.find((o) => o.name === 'rerank')!;
    expect(rerank.type).toBe('generation-create');
    expect(rerank.input).toMatchObject({ query: 'What is the capital of France?' });
    expect((rerank.output as { scores: number[] }).scores.length).toBeGreaterThan(0);

    const gen = obs.find((o) => o.type === 'generation-create' && o.model === CHAT_MODEL)!;
    expect(gen.parentObservationId).toBeUndefined();
    const usage = gen.usage as { input: number; output: number; total: number; unit: string };
    expect(usage.input).toBeGreaterThan(0);
    expect(usage.output).toBeGreaterThan(0);
    expect(usage.total).toBe(usage.input + usage.output);
    expect(usage.unit).toBe('TOKENS');
    expect(gen.usageDetails).toEqual({ input: usage.input, output: usage.output, total: usage.total });
    const messages = gen.input as Array<{ role: string; content: string }>;
    expect(messages[0].role).toBe('system');
    expect(messages[0].content).toContain('Paris is the capital of France');
    expect(messages.at(-1)).toMatchObject({ role: 'user', content: 'What is the capital of France?' });
    expect((gen.output as { content: string }).content).toBe('Paris is the capital of France.');
    for (const o of [retrieval, embed, rerank, gen]) {
      expect(Date.parse(String(o.endTime))).toBeGreaterThanOrEqual(Date.parse(String(o.startTime)));
      expect(o.traceId).toBe(trace.id);
    }
    expect(Date.parse(String(gen.completionStartTime))).toBeGreaterThanOrEqual(
      Date.parse(String(gen.startTime)),
    );
    // The batches went out with the tenant's keys.
    const ingest = lf.requests.filter((r) => r.path === '/api/public/ingestion');
    expect(ingest.length).toBeGreaterThan(0);
    expect(
      ingest.every(
        (r) => r.headers.authorization === `Basic ${Buffer.from(`${PK}:${SK}`).toString('base64')}`,
      ),
    ).toBe(true);
  });

  it('an agent run sends one trace with its component spans and the model call', async () => {
    const canvas = await saveCanvas(server, traced, { title: 'Echo', dsl: simpleFlow(CHAT_MODEL) });
    const before = lf.traces().length;
    const r = await postRun(
      server,
      '/v1/canvas/completion',
      { id: canvas.id, query: 'hello there' },
      traced.token,
    );
    expect(trail(r.frames).at(-1)).toBe('workflow_finished');
    await expect
      .poll(async () => {
        await server.ctx.tracing.flush();
        return lf.traces().length;
      })
      .toBe(before + 1);
    const trace = lf.traces().at(-1)!;
    expect(trace).toMatchObject({
      name: 'agent',
      input: 'hello there',
      metadata: { canvas_id: canvas.id, status: 'finished' },
    });
    expect(String(trace.output)).toContain('Paris is the capital of France.');
    const obs = lf.observations(trace.id);
    expect(obs.filter((o) => o.type === 'span-create').map((o) => o.name)).toEqual(
      expect.arrayContaining(['begin', 'Writer', 'Reply']),
    );
    const gen = obs.find((o) => o.type === 'generation-create')!;
    expect(gen).toMatchObject({ model: CHAT_MODEL });
    expect((gen.usage as { total: number }).total).toBeGreaterThan(0);
    expect(JSON.stringify(gen.input)).toContain('hello there');
  });

  it('an agent calling a Retrieval tool traces the retrieval with its question embedding', async () => {
    const dsl = editorDsl([
      { id: 'begin', name: 'begin', downstream: ['Agent:Researcher'] },
      {
        id: 'Agent:Researcher',
        name: 'Researcher',
        params: {
          ...llmParams(CHAT_MODEL, '{sys.query}'),
          max_rounds: 2,
          tools: [{ component_name: 'Retrieval', name: 'Retrieval', params: { kb_ids: [kbOfTraced] } }],
        },
        downstream: ['Message:Out'],
      },
      { id: 'Message:Out', name: 'Out', params: { content: ['{Agent:Researcher@content}'] } },
    ]);
    const canvas = await saveCanvas(server, traced, { title: 'Researcher', dsl });
    reply = toolAwareReply;
    try {
      const before = lf.traces().length;
      const r = await postRun(
        server,
        '/v1/canvas/completion',
        { id: canvas.id, query: 'capital France' },
        traced.token,
      );
      expect(trail(r.frames).at(-1)).toBe('workflow_finished');
      await expect
        .poll(async () => {
          await server.ctx.tracing.flush();
          return lf.traces().length;
        })
        .toBe(before + 1);
      const obs = lf.observations(lf.traces().at(-1)!.id);
      const retrieval = obs.find((o) => o.name === 'retrieval')!;
      expect(retrieval.input).toMatchObject({ query: 'capital France', datasets: [kbOfTraced] });
      expect(JSON.stringify(retrieval.output)).toContain('Paris');
      expect(obs.some((o) => o.name === 'embed question' && o.parentObservationId === retrieval.id)).toBe(
        true,
      );
      // Two model calls: the one that called the tool and the one that answered from its result.
      expect(
        obs.filter((o) => o.type === 'generation-create' && o.model === CHAT_MODEL).length,
      ).toBeGreaterThanOrEqual(2);
    } finally {
      reply = () => 'Paris is the capital of France.';
    }
  });

  it('a tenant without tracing keys sends nothing', async () => {
    const dialog = await setup(plain, false);
    const before = lf.events().length;
    const { res } = await complete(plain, dialog, 'Capital of Germany?');
    expect(res.body.code).toBe(0);
    await server.ctx.tracing.flush();
    expect(lf.events().length).toBe(before);
  });

  it('a tracing host that is down does not break the chat; the failed batch is counted', async () => {
    await lf.close();
    const failedBefore = server.ctx.tracing.stats().failed;
    const started = Date.now();
    const { res } = await complete(traced, dialogId, 'What is the capital of France?');
    expect(res.body.code).toBe(0);
    expect(res.body.data!.answer).toContain('Paris');
    const elapsed = Date.now() - started;
    await server.ctx.tracing.flush();
    expect(server.ctx.tracing.stats().failed).toBeGreaterThan(failedBefore);
    expect(server.ctx.tracing.stats().queued).toBe(0);
    expect(elapsed).toBeLessThan(10_000);
  });
});

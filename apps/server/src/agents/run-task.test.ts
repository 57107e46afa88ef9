/**
 * The `agent_run` task kind: a run whose process stopped before it ended (its lease expired) is run
 * again by a worker from the request kept in the task, under the same message id, and its results
 * are saved; a run that had already ended only closes its task.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUser, startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { startOpenAIStandin, type Standin } from '../../test/standins/index.js';
import { CHAT_MODEL, wireModels } from '../chat/test-fixtures.js';
import { parseJson, toJson } from '../db/json.js';
import { saveCanvas, simpleFlow } from '../modules/canvas/test-support.js';
import { newTaskRow } from '../queue/enqueue.js';
import type { WorkerHost } from '../queue/worker-host.js';
import { startTaskWorkers } from '../root.js';
import { newId } from '../util/ids.js';
import { creationStamps } from '../util/time.js';

let server: TestServer;
let llm: Standin;
let user: TestUser;
let host: WorkerHost;

beforeAll(async () => {
  llm = await startOpenAIStandin();
  server = await startTestServer();
  user = await newUser(server, 'recover');
  await wireModels(server, user, llm);
  host = await startTaskWorkers(server.ctx, { pollMs: 100, tickMs: 200, leaseMs: 5_000 });
});

afterAll(async () => {
  await host?.stop();
  await server?.close();
  await llm?.close();
});

/** A run left behind by a process that stopped: its task leased by nobody alive, its log "running". */
async function orphanRun(canvasId: string, status = 'running') {
  const db = server.ctx.db.kysely;
  const messageId = crypto.randomUUID();
  const taskId = newId();
  const row = newTaskRow(
    'agent_run',
    {
      canvas_id: canvasId,
      session_id: '',
      message_id: messageId,
      user_id: user.id,
      request: { query: 'picked up again', files: [], inputs: {} },
    },
    { doc_id: canvasId, kb_id: '', tenant_id: user.id },
  );
  await db
    .insertInto('task')
    .values({ ...row, id: taskId, lease_owner: 'gone-process', lease_until: Date.now() - 1_000 })
    .execute();
  await db
    .insertInto('canvas_run')
    .values({
      id: messageId,
      canvas_id: canvasId,
      task_id: taskId,
      session_id: null,
      tenant_id: user.id,
      status,
      events: toJson([]),
      trace: toJson([]),
      ...creationStamps(),
    })
    .execute();
  server.ctx.queue.notifyQueued();
  return { messageId, taskId };
}

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('agent_run tasks', () => {
  it('a worker runs an interrupted run again under its message id and saves it', async () => {
    const canvas = await saveCanvas(server, user, { title: 'Recovered', dsl: simpleFlow(CHAT_MODEL) });
    const { messageId, taskId } = await orphanRun(canvas.id);
    const db = server.ctx.db.kysely;
    const task = await until(
      () => db.selectFrom('task').selectAll().where('id', '=', taskId).executeTakeFirstOrThrow(),
      (t) => t.progress === 1 || t.progress < 0,
    );
    expect(task.progress).toBe(1);
    const log = await db
      .selectFrom('canvas_run')
      .selectAll()
      .where('id', '=', messageId)
      .executeTakeFirstOrThrow();
    expect(log.status).toBe('finished');
    const events = parseJson<Array<{ event?: string; message_id?: string }>>(log.events, []);
    expect(events[0]).toMatchObject({ event: 'workflow_started', message_id: messageId });
    expect(events.at(-1)!.event).toBe('workflow_finished');
    const saved = await db
      .selectFrom('user_canvas')
      .select('dsl')
      .where('id', '=', canvas.id)
      .executeTakeFirstOrThrow();
    expect(parseJson<{ history: unknown[][] }>(saved.dsl, { history: [] }).history[0]).toEqual([
      'user',
      'picked up again',
    ]);
  });

  it('a run that had already ended only closes its task', async () => {
    const canvas = await saveCanvas(server, user, { title: 'Ended', dsl: simpleFlow(CHAT_MODEL) });
    const { taskId } = await orphanRun(canvas.id, 'finished');
    const db = server.ctx.db.kysely;
    const task = await until(
      () => db.selectFrom('task').selectAll().where('id', '=', taskId).executeTakeFirstOrThrow(),
      (t) => t.progress === 1 || t.progress < 0,
    );
    expect(task.progress).toBe(-1);
    expect(task.progress_msg).toContain('The run ended before its task was closed.');
    expect(llm.modelCalls()).toHaveLength(1); // only the first test's run called the model
  });
});

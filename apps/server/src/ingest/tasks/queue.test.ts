import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import type { TaskTable } from '../../db/types.js';
import { createKb, uploadDocs, waitSettled } from '../../modules/kb/test-support.js';
import { newId } from '../../util/ids.js';
import { creationStamps } from '../../util/time.js';
import { claimNextTask, renewLease } from '../../queue/claim.js';
import { LAZY_WRITE_MS, TaskCancelled, TaskProgress } from '../../queue/progress.js';
import { splitRanges } from './enqueue.js';
import { QUEUE_MESSAGE_REFRESH_MS, rollupDocument, rollupRunning } from './rollup.js';
import { startTaskWorkers } from '../../root.js';

describe('task splitting (API.md §19.8)', () => {
  const pdf = (config: Record<string, unknown>, pageCount = 30, parserId = 'naive') =>
    splitRanges({ suffix: 'pdf', parserId, config, pageCount }).map((r) => [r.from, r.to]);

  it('splits PDFs by task_page_size (12, paper 22) within clipped page ranges', () => {
    expect(pdf({})).toEqual([
      [0, 12],
      [12, 24],
      [24, 30],
    ]);
    expect(pdf({}, 30, 'paper')).toEqual([
      [0, 22],
      [22, 30],
    ]);
    expect(
      pdf({
        task_page_size: 5,
        pages: [
          [2, 7],
          [20, 40],
        ],
      }),
    ).toEqual([
      [1, 6],
      [6, 7],
      [19, 24],
      [24, 29],
      [29, 30],
    ]);
    expect(pdf({ pages: [[40, 50]] })).toEqual([]);
  });

  it('keeps whole-document methods, non-default layouts and TOC extraction in one task', () => {
    expect(pdf({}, 30, 'one')).toEqual([[0, 30]]);
    expect(pdf({}, 30, 'knowledge_graph')).toEqual([[0, 30]]);
    expect(pdf({ layout_recognize: 'Plain Text' })).toEqual([[0, 30]]);
    expect(pdf({ toc_extraction: true })).toEqual([[0, 30]]);
    expect(splitRanges({ suffix: 'pdf', parserId: 'naive', config: {} })).toEqual([
      { from: 0, to: 100000000 },
    ]);
  });

  it('splits the table method by 3000 rows and leaves other files whole', () => {
    expect(
      splitRanges({ suffix: 'csv', parserId: 'table', config: {}, rowCount: 7000 }).map((r) => [
        r.from,
        r.to,
      ]),
    ).toEqual([
      [0, 3000],
      [3000, 6000],
      [6000, 7000],
    ]);
    expect(splitRanges({ suffix: 'docx', parserId: 'naive', config: {} })).toEqual([
      { from: 0, to: 100000000 },
    ]);
  });
});

describe('leases, retries and queue position', () => {
  let server: TestServer;
  let alice: TestUser;
  beforeAll(async () => {
    server = await startTestServer();
    alice = await newUser(server, 'alice');
  });
  afterAll(async () => server.close());

  function taskRow(docId: string, over: Partial<TaskTable> = {}): TaskTable {
    return {
      id: newId(),
      doc_id: docId,
      kb_id: '',
      tenant_id: '',
      from_page: 0,
      to_page: 100000000,
      kind: 'parse',
      payload: '{}',
      priority: 0,
      begin_at: null,
      process_duration: 0,
      progress: 0,
      progress_msg: '',
      retry_count: 0,
      digest: '',
      chunk_ids: '',
      cancel: 0,
      lease_owner: null,
      lease_until: null,
      token_num: 0,
      ...creationStamps(),
      ...over,
    };
  }

  it('claims by priority then age, never twice while a lease lives, and counts a retry after expiry', async () => {
    const db = server.ctx.db.kysely;
    const doc = newId();
    const now = Date.now();
    const old = taskRow(doc, { ...creationStamps(now - 1000) });
    const urgent = taskRow(doc, { priority: 5, ...creationStamps(now) });
    const finished = taskRow(doc, { progress: 1, ...creationStamps(now - 5000) });
    const cancelled = taskRow(doc, { cancel: 1, ...creationStamps(now - 5000) });
    await db.insertInto('task').values([old, urgent, finished, cancelled]).execute();

    expect((await claimNextTask(server.ctx.db, 'w1', 60_000, ['parse']))?.id).toBe(urgent.id);
    expect((await claimNextTask(server.ctx.db, 'w2', 60_000, ['parse']))?.id).toBe(old.id);
    expect(await claimNextTask(server.ctx.db, 'w3', 60_000, ['parse'])).toBeNull();
    expect(await renewLease(server.ctx.db, old.id, 'w2', 60_000)).toBe('held');
    expect(await renewLease(server.ctx.db, old.id, 'w3', 60_000)).toBe('lost');

    // w2 dies: its lease runs out and w3 takes the task over as a retry.
    await db
      .updateTable('task')
      .set({ lease_until: Date.now() - 1 })
      .where('id', '=', old.id)
      .execute();
    const retried = await claimNextTask(server.ctx.db, 'w3', 60_000, ['parse']);
    expect(retried).toMatchObject({ id: old.id, lease_owner: 'w3', retry_count: 1 });
    expect(await renewLease(server.ctx.db, old.id, 'w2', 60_000)).toBe('lost');
    await db.updateTable('task').set({ cancel: 1 }).where('id', '=', old.id).execute();
    expect(await renewLease(server.ctx.db, old.id, 'w3', 60_000)).toBe('cancelled');
    await db.deleteFrom('task').where('doc_id', '=', doc).execute();
  });

  it('gives a task up after 3 retries with a readable message and fails its document', async () => {
    const kb = await createKb(server, alice.token, { name: 'Retries' });
    const [doc] = await uploadDocs(server, alice.token, kb, [{ name: 'x.txt', data: 'text' }]);
    const db = server.ctx.db.kysely;
    await db
      .updateTable('document')
      .set({ run: '1', process_begin_at: Date.now() })
      .where('id', '=', doc.id)
      .execute();
    await db
      .insertInto('task')
      .values(
        taskRow(doc.id, {
          kb_id: kb,
          retry_count: 3,
          lease_owner: 'dead-worker',
          lease_until: Date.now() - 1,
          begin_at: Date.now() - 5000,
        }),
      )
      .execute();
    const host = await startTaskWorkers(server.ctx, { pollMs: 50, tickMs: 100 });
    try {
      const settled = (await waitSettled(server, alice.token, kb)).get(doc.id)!;
      expect(settled.run).toBe('4');
      expect(settled.progress).toBe(-1);
      expect(settled.progress_msg).toMatch(
        /\[ERROR\] The task was interrupted 4 times \(its worker stopped while processing it\) and was given up\./,
      );
    } finally {
      await host.stop();
    }
  });

  it('says how many tasks are ahead while a document waits', async () => {
    const kb = await createKb(server, alice.token, { name: 'Queue' });
    const [a, b] = await uploadDocs(server, alice.token, kb, [
      { name: 'a.txt', data: 'a' },
      { name: 'b.txt', data: 'b' },
    ]);
    const db = server.ctx.db.kysely;
    const now = Date.now();
    await db
      .updateTable('document')
      .set({ run: '1', process_begin_at: now })
      .where('id', 'in', [a.id, b.id])
      .execute();
    await db
      .insertInto('task')
      .values([
        taskRow(a.id, { kb_id: kb, ...creationStamps(now - 30) }),
        taskRow(a.id, { kb_id: kb, from_page: 1, ...creationStamps(now - 20) }),
        taskRow(b.id, { kb_id: kb, ...creationStamps(now - 10) }),
      ])
      .execute();
    await rollupDocument(server.ctx, b.id);
    await rollupDocument(server.ctx, a.id);
    const rows = await db
      .selectFrom('document')
      .select(['id', 'progress_msg', 'run'])
      .where('id', 'in', [a.id, b.id])
      .execute();
    expect(rows.find((r) => r.id === b.id)?.progress_msg).toBe('2 tasks are ahead in the queue...');
    expect(rows.find((r) => r.id === a.id)?.progress_msg).toBe('0 tasks are ahead in the queue...');
    await db.deleteFrom('task').where('kb_id', '=', kb).execute();
  });

  it('the periodic pass writes progress at once but refreshes waiting queue positions only every few seconds', async () => {
    const kb = await createKb(server, alice.token, { name: 'Queue refresh' });
    const [a, b] = await uploadDocs(server, alice.token, kb, [
      { name: 'a.txt', data: 'a' },
      { name: 'b.txt', data: 'b' },
    ]);
    const db = server.ctx.db.kysely;
    const now = Date.now();
    await db
      .updateTable('document')
      .set({ run: '1', process_begin_at: now, progress_msg: 'Task is queued...' })
      .where('id', 'in', [a.id, b.id])
      .execute();
    const first = taskRow(a.id, { kb_id: kb, ...creationStamps(now - 30) });
    await db
      .insertInto('task')
      .values([
        first,
        taskRow(a.id, { kb_id: kb, from_page: 1, ...creationStamps(now - 20) }),
        taskRow(b.id, { kb_id: kb, ...creationStamps(now - 10) }),
      ])
      .execute();
    const read = async () => {
      const rows = await db
        .selectFrom('document')
        .select(['id', 'progress_msg', 'progress', 'update_time'])
        .where('id', 'in', [a.id, b.id])
        .execute();
      return { a: rows.find((r) => r.id === a.id)!, b: rows.find((r) => r.id === b.id)! };
    };
    await rollupRunning(server.ctx);
    const queued = await read();
    expect(queued.b.progress_msg).toBe('2 tasks are ahead in the queue...');
    expect(queued.a.progress_msg).toBe('0 tasks are ahead in the queue...');

    // a's first task ends: a's progress is written at once, b's place in the queue waits.
    await db
      .updateTable('task')
      .set({ progress: 1, progress_msg: 'done', begin_at: now })
      .where('id', '=', first.id)
      .execute();
    await rollupRunning(server.ctx);
    const soon = await read();
    expect(soon.a.progress).toBeCloseTo(0.5);
    expect(soon.a.progress_msg).toBe('done');
    expect(soon.b).toEqual(queued.b);

    const later = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + QUEUE_MESSAGE_REFRESH_MS + 1);
    try {
      await rollupRunning(server.ctx);
    } finally {
      later.mockRestore();
    }
    expect((await read()).b.progress_msg).toBe('1 tasks are ahead in the queue...');
    await db.deleteFrom('task').where('kb_id', '=', kb).execute();
  });
  it('lazy progress reports write at most every LAZY_WRITE_MS; held-back lines reach the next and the final write', async () => {
    const db = server.ctx.db.kysely;
    const doc = newId();
    await db.insertInto('task').values(taskRow(doc)).execute();
    const task = (await claimNextTask(server.ctx.db, 'w1', 60_000, ['parse']))!;
    const rollups = vi.fn(async () => undefined);
    const progress = new TaskProgress(server.ctx.db, task, 'w1', rollups);
    const row = () =>
      db
        .selectFrom('task')
        .select(['progress', 'progress_msg'])
        .where('id', '=', task.id)
        .executeTakeFirstOrThrow();
    const start = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(start);
    try {
      await progress.reportLazily(0.1, 'first line');
      expect(await row()).toMatchObject({ progress: 0.1 });
      expect((await row()).progress_msg).toContain('first line');

      // Within the window: nothing written, held in memory.
      clock.mockReturnValue(start + LAZY_WRITE_MS - 1);
      await progress.reportLazily(0.5, 'held line');
      expect((await row()).progress).toBe(0.1);
      expect((await row()).progress_msg).not.toContain('held line');

      // The next write after the window carries the held line and the raised progress.
      clock.mockReturnValue(start + LAZY_WRITE_MS);
      await progress.reportLazily(null, 'third line');
      const written = await row();
      expect(written.progress).toBe(0.5);
      expect(written.progress_msg.split('\n').map((l) => l.slice(9))).toEqual([
        'first line',
        'held line',
        'third line',
      ]);
      // A short task does not roll its document up before its first second.
      expect(rollups).not.toHaveBeenCalled();
      clock.mockReturnValue(start + 1_001 + LAZY_WRITE_MS);
      await progress.reportLazily(0.6);
      expect(rollups).toHaveBeenCalledTimes(1);

      // A lazy report that does not write does not see a cancel; the next real write does.
      clock.mockReturnValue(start + 1_002 + LAZY_WRITE_MS);
      await progress.reportLazily(0.7, 'last held');
      await db.updateTable('task').set({ cancel: 1 }).where('id', '=', task.id).execute();
      await progress.reportLazily(0.7, 'unseen cancel');
      await expect(progress.report(0.7)).rejects.toBeInstanceOf(TaskCancelled);
      // The final log (what finishTask and fail write) holds every line.
      expect(
        progress
          .logWith('done')
          .split('\n')
          .map((l) => l.slice(9)),
      ).toEqual(['first line', 'held line', 'third line', 'last held', 'unseen cancel', 'done']);
    } finally {
      clock.mockRestore();
    }
    await db.deleteFrom('task').where('doc_id', '=', doc).execute();
  });
});

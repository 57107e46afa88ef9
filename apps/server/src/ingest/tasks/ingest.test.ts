import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { chunkId } from '../pipeline.js';
import { createKb, listDocs, runDocs, uploadDocs, waitSettled } from '../../modules/kb/test-support.js';
import { makePdf, textPages } from '../testing/make-pdf.js';
import { startTaskWorkers } from '../../root.js';
import type { WorkerHost } from '../../queue/worker-host.js';

const LINE = /^\d\d:\d\d:\d\d /;

describe('ingestion: task queue, pipeline and progress (API.md §19.8, §19.9)', () => {
  let server: TestServer;
  let host: WorkerHost;
  let alice: TestUser;
  beforeAll(async () => {
    server = await startTestServer({ WORKER_CONCURRENCY: '2' });
    host = await startTaskWorkers(server.ctx, { pollMs: 100, tickMs: 200, leaseMs: 5_000 });
    alice = await newUser(server, 'alice');
  });
  afterAll(async () => {
    await host.stop();
    await server.close();
  });

  const tasksOf = (docId: string) =>
    server.ctx.db.kysely
      .selectFrom('task')
      .selectAll()
      .where('doc_id', '=', docId)
      .orderBy('from_page')
      .execute();

  it('parses documents to run "3" with the progress log, counters and content-hash chunk ids', async () => {
    const kb = await createKb(server, alice.token, { name: 'Run', parser_config: { chunk_token_num: 64 } });
    const text = Array.from(
      { length: 40 },
      (_, i) => `Sentence number ${i} talks about retrieval and parsing.`,
    ).join('\n');
    const docs = await uploadDocs(server, alice.token, kb, [
      { name: 'long.txt', data: text },
      { name: 'short.md', data: '# Title\n\nA short markdown document.' },
    ]);
    expect(
      (
        await runDocs(
          server,
          alice.token,
          docs.map((d) => d.id),
        )
      ).body,
    ).toEqual({ code: 0, message: 'success', data: true });
    const settled = await waitSettled(server, alice.token, kb);
    const index = server.ctx.chunkIndex;
    let total = 0;
    for (const d of docs) {
      const doc = settled.get(d.id)!;
      expect(doc.run).toBe('3');
      expect(doc.progress).toBe(1);
      expect(doc.chunk_num).toBeGreaterThan(0);
      expect(doc.token_num).toBeGreaterThan(0);
      expect(doc.process_duration as number).toBeGreaterThan(0);
      const lines = doc.progress_msg.split('\n');
      for (const l of lines) expect(l).toMatch(LINE);
      const steps = lines.map((l) => l.slice(9));
      expect(steps[0]).toBe('Start to parse.');
      expect(steps).toContain('Finish parsing.');
      expect(steps).toContain(`Generate ${doc.chunk_num} chunks`);
      expect(steps.some((s) => /^Keyword-only indexing: no embedding model is set/.test(s))).toBe(true);
      expect(steps.at(-2)).toMatch(/^Indexing done \(\d+\.\d\ds\)\.$/);
      expect(steps.at(-1)).toMatch(/^Task done \(\d+\.\d\ds\)$/);
      expect(await index.countByDoc(d.id)).toBe(doc.chunk_num);
      const [task] = await tasksOf(d.id);
      expect(task).toMatchObject({ from_page: 0, to_page: 100000000, progress: 1, retry_count: 0 });
      const ids = task.chunk_ids.split(' ');
      expect(ids).toHaveLength(doc.chunk_num);
      for (const id of ids) {
        expect(id).toMatch(/^[0-9a-f]{16}$/);
        const chunk = await index.get(id);
        expect(chunk?.doc_id).toBe(d.id);
        expect(chunkId(chunk!.content_with_weight, d.id)).toBe(id);
        expect(chunk?.vector).toBeNull();
      }
      total += doc.chunk_num;
    }
    const kbRow = (
      await call<Record<string, number>>(server, `/v1/kb/detail?kb_id=${kb}`, { token: alice.token })
    ).body.data!;
    expect(kbRow.chunk_num).toBe(total);
    expect(
      (await call(server, `/v1/kb/basic_info?kb_id=${kb}`, { token: alice.token })).body.data,
    ).toMatchObject({ finished: 2, processing: 0 });
  });

  it('splits a PDF into task_page_size tasks within its page ranges, clipped to the page count', async () => {
    const kb = await createKb(server, alice.token, {
      name: 'Pages',
      parser_config: {
        pages: [
          [1, 5],
          [8, 30],
        ],
        task_page_size: 3,
      },
    });
    const [doc] = await uploadDocs(server, alice.token, kb, [
      { name: 'ten.pdf', data: makePdf(textPages(10, 6)) },
    ]);
    await runDocs(server, alice.token, [doc.id]);
    const tasks = await tasksOf(doc.id);
    expect(tasks.map((t) => [t.from_page, t.to_page])).toEqual([
      [0, 3],
      [3, 5],
      [7, 10],
    ]);
    const settled = (await waitSettled(server, alice.token, kb)).get(doc.id)!;
    expect(settled.run).toBe('3');
    expect(settled.progress_msg).toMatch(/^\d\d:\d\d:\d\d Page\(1~3\): Start to parse\./m);
    expect(settled.progress_msg).toMatch(/Page\(8~10\): Task done/);
    const index = server.ctx.chunkIndex;
    const chunks = (await index.list({ kbIds: [kb], docIds: [doc.id] }, 'position', 0, 100)).chunks;
    const text = chunks.map((c) => c.content_with_weight).join('\n');
    expect(text).toContain('Lectern page 1');
    expect(text).toContain('Lectern page 8');
    expect(text).not.toContain('Lectern page 6');
    expect(chunks[0].positions[0][0]).toBe(1);
  });

  it('re-parsing reuses finished tasks unless asked to clear; clearing rebuilds from scratch', async () => {
    const kb = await createKb(server, alice.token, { name: 'Reparse' });
    const [doc] = await uploadDocs(server, alice.token, kb, [
      { name: 'r.txt', data: 'alpha line\nbeta line\ngamma line' },
    ]);
    await runDocs(server, alice.token, [doc.id]);
    const first = (await waitSettled(server, alice.token, kb)).get(doc.id)!;
    const ids = (await tasksOf(doc.id))[0].chunk_ids;

    await runDocs(server, alice.token, [doc.id]);
    const reused = (await waitSettled(server, alice.token, kb)).get(doc.id)!;
    expect(reused.run).toBe('3');
    expect(reused.progress_msg).toMatch(/Reused previous task's chunks\.$/);
    expect(reused.chunk_num).toBe(first.chunk_num);
    expect((await tasksOf(doc.id))[0].chunk_ids).toBe(ids);

    await runDocs(server, alice.token, [doc.id], { delete: true });
    const cleared = (await waitSettled(server, alice.token, kb)).get(doc.id)!;
    expect(cleared.progress_msg).toMatch(/Task done/);
    expect(cleared.chunk_num).toBe(first.chunk_num);
    const index = server.ctx.chunkIndex;
    expect(await index.countByDoc(doc.id)).toBe(first.chunk_num);
    const kbRow = (
      await call<Record<string, number>>(server, `/v1/kb/detail?kb_id=${kb}`, { token: alice.token })
    ).body.data!;
    expect(kbRow.chunk_num).toBe(first.chunk_num);
  });

  it('cancels a running document: run "2", progress 0, tasks end [Canceled] and are not rolled up', async () => {
    const kb = await createKb(server, alice.token, { name: 'Cancel', parser_config: { task_page_size: 1 } });
    const [doc] = await uploadDocs(server, alice.token, kb, [
      { name: 'big.pdf', data: makePdf(textPages(60, 40)) },
    ]);
    expect(
      (await call(server, '/v1/document/run', { token: alice.token, body: { doc_ids: [doc.id], run: '2' } }))
        .body,
    ).toMatchObject({
      code: 102,
      message: 'Cannot cancel a task that is not in RUNNING status',
    });
    await runDocs(server, alice.token, [doc.id]);
    const deadline = Date.now() + 20_000;
    while (!(await tasksOf(doc.id)).some((t) => t.progress === 1) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(
      (await call(server, '/v1/document/run', { token: alice.token, body: { doc_ids: [doc.id], run: '2' } }))
        .body.code,
    ).toBe(0);
    const stopBy = Date.now() + 15_000;
    while ((await tasksOf(doc.id)).some((t) => t.progress >= 0 && t.progress < 1) && Date.now() < stopBy)
      await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500)); // a roll-up pass would have run by now
    const [row] = (await listDocs(server, alice.token, kb)).filter((d) => d.id === doc.id);
    expect(row.run).toBe('2');
    expect(row.progress).toBe(0);
    const tasks = await tasksOf(doc.id);
    expect(
      tasks
        .filter((t) => t.progress !== 1 && t.progress !== -1)
        .map((t) => [t.from_page, t.progress, t.progress_msg]),
    ).toEqual([]);
    expect(tasks.some((t) => t.progress === -1 && /\[Canceled\]$/.test(t.progress_msg))).toBe(true);
    expect(tasks.every((t) => t.cancel === 1)).toBe(true);
  });

  it('change_parser resets the document and deletes its chunks; images must stay on picture', async () => {
    const kb = await createKb(server, alice.token, { name: 'Parser' });
    const [doc, img] = await uploadDocs(server, alice.token, kb, [
      { name: 'p.txt', data: 'one line\ntwo lines' },
      { name: 'i.jpg', data: Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex') },
    ]);
    await runDocs(server, alice.token, [doc.id]);
    await waitSettled(server, alice.token, kb);
    const post = (body: unknown) => call(server, '/v1/document/change_parser', { token: alice.token, body });
    expect((await post({ doc_id: img.id, parser_id: 'naive' })).body).toMatchObject({
      code: 102,
      message: 'Not supported yet!',
    });
    expect((await post({ doc_id: doc.id, parser_id: 'naive' })).body).toMatchObject({ code: 0, data: true });
    expect((await listDocs(server, alice.token, kb)).find((d) => d.id === doc.id)?.run).toBe('3'); // unchanged: no-op
    expect((await post({ doc_id: doc.id, parser_id: 'one' })).body).toMatchObject({ code: 0, data: true });
    const after = (await listDocs(server, alice.token, kb)).find((d) => d.id === doc.id)!;
    expect(after).toMatchObject({
      run: '0',
      progress: 0,
      progress_msg: '',
      chunk_num: 0,
      token_num: 0,
      parser_id: 'one',
    });
    expect(await server.ctx.chunkIndex.countByDoc(doc.id)).toBe(0);
    expect(await tasksOf(doc.id)).toEqual([]);
    expect(
      (
        await call(server, '/v1/document/change_parser', {
          token: (await newUser(server)).token,
          body: { doc_id: doc.id, parser_id: 'qa' },
        })
      ).body.code,
    ).toBe(109);
  });

  it('mirrors the enable switch, renames and the KB pagerank into the chunks', async () => {
    const kb = await createKb(server, alice.token, { name: 'Mirror' });
    const [doc] = await uploadDocs(server, alice.token, kb, [{ name: 'm.txt', data: 'mirror me\nplease' }]);
    await runDocs(server, alice.token, [doc.id]);
    await waitSettled(server, alice.token, kb);
    const index = server.ctx.chunkIndex;
    const chunks = async () =>
      (await index.list({ kbIds: [kb], docIds: [doc.id] }, 'position', 0, 50)).chunks;
    await call(server, '/v1/document/change_status', {
      token: alice.token,
      body: { doc_ids: [doc.id], status: '0' },
    });
    expect((await chunks()).every((c) => c.available_int === 0)).toBe(true);
    await call(server, '/v1/document/change_status', {
      token: alice.token,
      body: { doc_ids: [doc.id], status: 1 },
    });
    expect((await chunks()).every((c) => c.available_int === 1)).toBe(true);
    await call(server, '/v1/document/rename', {
      token: alice.token,
      body: { doc_id: doc.id, name: 'renamed.txt' },
    });
    expect((await chunks()).every((c) => c.docnm_kwd === 'renamed.txt')).toBe(true);
    await call(server, '/v1/kb/update', {
      token: alice.token,
      body: { kb_id: kb, name: 'Mirror', description: '', parser_id: 'naive', pagerank: 30 },
    });
    expect((await chunks()).every((c) => c.pagerank_fea === 30)).toBe(true);
  });

  it('counts, removes and renames tags of tag-method chunks', async () => {
    const kb = await createKb(server, alice.token, { name: 'Tags', parser_id: 'tag' });
    const [doc] = await uploadDocs(server, alice.token, kb, [
      {
        name: 'tags.txt',
        data: 'Apples are red\tfruit,red\nBananas are yellow\tfruit,yellow\nCherries\tfruit,red',
      },
    ]);
    await runDocs(server, alice.token, [doc.id]);
    expect((await waitSettled(server, alice.token, kb)).get(doc.id)?.run).toBe('3');
    const tags = async () =>
      (await call<Array<[string, number]>>(server, `/v1/kb/${kb}/tags`, { token: alice.token })).body.data;
    expect(await tags()).toEqual([
      ['fruit', 3],
      ['red', 2],
      ['yellow', 1],
    ]);
    expect((await call(server, `/v1/kb/tags?kb_ids=${kb}`, { token: alice.token })).body.data).toEqual([
      ['fruit', 3],
      ['red', 2],
      ['yellow', 1],
    ]);
    expect(
      (await call(server, `/v1/kb/${kb}/rm_tags`, { token: alice.token, body: { tags: ['red'] } })).body.data,
    ).toBe(true);
    expect(
      (
        await call(server, `/v1/kb/${kb}/rename_tag`, {
          token: alice.token,
          body: { from_tag: 'fruit', to_tag: 'food' },
        })
      ).body.data,
    ).toBe(true);
    expect(await tags()).toEqual([
      ['food', 3],
      ['yellow', 1],
    ]);
    const stranger = await newUser(server);
    expect(
      (await call(server, `/v1/kb/${kb}/rm_tags`, { token: stranger.token, body: { tags: ['x'] } })).body
        .code,
    ).toBe(109);
  });

  it('publishes the worker heartbeat for /v1/system/status', async () => {
    const status = await call<{ task_executor_heartbeats: Record<string, unknown[]> }>(
      server,
      '/v1/system/status',
      { token: alice.token },
    );
    const beats = (
      status.body.data as { task_executor_heartbeats: Record<string, Array<Record<string, unknown>>> }
    ).task_executor_heartbeats;
    expect(beats[host.name]?.[0]).toMatchObject({ name: host.name, pid: process.pid });
  });
});

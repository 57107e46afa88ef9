import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAIStandin, type Standin } from '../../../test/standins/index.js';
import { startTaskWorkers } from '../../root.js';
import type { WorkerHost } from '../../queue/worker-host.js';
import {
  answers,
  createConversation,
  createDialog,
  createKb,
  postSse,
  seedChunks,
  wireModels,
} from '../../chat/test-fixtures.js';

/** Attachments: upload_and_parse into the assistant's dataset, then questions restricted to them. */

let server: TestServer;
let host: WorkerHost;
let llm: Standin;
let user: TestUser;
let kbId: string;
let dialogId: string;

async function uploadTo(
  route: string,
  fields: Record<string, string>,
  files: Array<{ name: string; data: string }>,
  auth: string,
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append('file', new Blob([Buffer.from(f.data)]), f.name);
  const res = await fetch(`${server.url}${route}`, {
    method: 'POST',
    headers: { Authorization: auth },
    body: form,
  });
  return (await res.json()) as { code: number; message: string; data?: unknown };
}

beforeAll(async () => {
  llm = await startOpenAIStandin({ reply: () => 'The code word is pineapple.' });
  server = await startTestServer({ MODEL_MAX_RETRIES: '0' });
  host = await startTaskWorkers(server.ctx, { pollMs: 100, tickMs: 200, leaseMs: 5_000 });
  user = await newUser(server, 'attacher');
  await wireModels(server, user, llm);
  kbId = await createKb(server, user, 'Inbox');
  await seedChunks(server, kbId, user.id, [
    { content: 'The code word of last year was banana.', doc: 'old.txt' },
  ]);
  dialogId = (await createDialog(server, user, { kb_ids: [kbId], prompt_config: { system: '{knowledge}' } }))
    .id;
});

afterAll(async () => {
  await host?.stop();
  await server?.close();
  await llm?.close();
});

describe('POST /v1/document/upload_and_parse', () => {
  it('parses the files into the assistant’s dataset and answers with their ids, usable as doc_ids', async () => {
    const conv = await createConversation(server, user, dialogId);
    const res = await uploadTo(
      '/v1/document/upload_and_parse',
      { conversation_id: conv },
      [{ name: 'memo.txt', data: 'The code word of this year is pineapple.\nKeep it secret.' }],
      user.token,
    );
    expect(res.code, res.message).toBe(0);
    const ids = res.data as string[];
    expect(ids).toHaveLength(1);
    const doc = await server.ctx.db.kysely
      .selectFrom('document')
      .selectAll()
      .where('id', '=', ids[0])
      .executeTakeFirstOrThrow();
    expect(doc).toMatchObject({ kb_id: kbId, name: 'memo.txt', run: '3' });
    expect(doc.chunk_num).toBeGreaterThan(0);

    const r = await postSse(
      server,
      '/v1/conversation/completion',
      {
        conversation_id: conv,
        messages: [{ role: 'user', content: 'What is the code word?', id: 'q1', doc_ids: ids }],
      },
      user.token,
    );
    const final = answers(r).find((e) => e.final);
    expect(final?.reference.chunks.length).toBeGreaterThan(0);
    expect(final?.reference.chunks.every((c) => c.document_id === ids[0])).toBe(true);
  });

  it('refuses a request without a file or for someone else’s conversation', async () => {
    const conv = await createConversation(server, user, dialogId);
    expect(
      await uploadTo('/v1/document/upload_and_parse', { conversation_id: conv }, [], user.token),
    ).toMatchObject({
      code: 101,
      message: 'No file part!',
    });
    const other = await newUser(server, 'other');
    expect(
      await uploadTo(
        '/v1/document/upload_and_parse',
        { conversation_id: conv },
        [{ name: 'a.txt', data: 'x y z' }],
        other.token,
      ),
    ).toMatchObject({ code: 102, message: 'Conversation not found!' });
  });
});

describe('legacy API attachments', () => {
  it('uploads with the API key and deletes documents by name or id', async () => {
    const key = (
      (
        await call<{ token: string }>(server, '/v1/api/new_token', {
          token: user.token,
          body: { dialog_id: dialogId },
        })
      ).body.data as { token: string }
    ).token;
    const sid = (
      (
        await call<{ id: string }>(server, '/v1/api/new_conversation?user_id=ext', {
          headers: { Authorization: `Bearer ${key}` },
        })
      ).body.data as { id: string }
    ).id;
    const up = await uploadTo(
      '/v1/api/document/upload_and_parse',
      { conversation_id: sid },
      [{ name: 'api-note.txt', data: 'Notes sent through the API.' }],
      `Bearer ${key}`,
    );
    expect(up.code, up.message).toBe(0);
    const [docId] = up.data as string[];

    const del = (body: unknown, k = key) =>
      call(server, '/v1/api/document', { method: 'DELETE', headers: { Authorization: `Bearer ${k}` }, body });
    expect((await del({})).body).toMatchObject({ code: 102, message: "Can't find doc_names or doc_ids" });
    expect((await del({ doc_ids: ['0'.repeat(32)] })).body).toMatchObject({
      code: 102,
      message: 'Document not found!',
    });
    expect((await del({ doc_names: ['api-note.txt'] }, 'lectern-bad')).body).toMatchObject({ code: 109 });
    expect((await del({ doc_names: ['api-note.txt'] })).body).toEqual({
      code: 0,
      message: 'success',
      data: true,
    });
    expect(
      await server.ctx.db.kysely
        .selectFrom('document')
        .select('id')
        .where('id', '=', docId)
        .executeTakeFirst(),
    ).toBeUndefined();
  });
});

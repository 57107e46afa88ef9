import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { createKb, upload, uploadDocs } from '../kb/test-support.js';

/** Document metadata routes and attachments (API.md §6). */
describe('document metadata routes and attachments', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let kbId: string;
  let docs: Array<{ id: string }>;
  beforeAll(async () => {
    server = await startTestServer();
    alice = await newUser(server, 'alice');
    bob = await newUser(server, 'bob');
    kbId = await createKb(server, alice.token, { name: 'Meta' });
    docs = await uploadDocs(server, alice.token, kbId, [
      { name: 'a.txt', data: 'alpha' },
      { name: 'b.txt', data: 'beta' },
      { name: 'c.txt', data: 'gamma' },
    ]);
    const meta = [{ author: 'Ann', year: 2020 }, { author: 'Ann', tags: ['x', 'y'] }, { author: 'Bo' }];
    for (const [i, d] of docs.entries())
      await call(server, '/v1/document/set_meta', {
        token: alice.token,
        body: { doc_id: d.id, meta: JSON.stringify(meta[i]) },
      });
  });
  afterAll(async () => server.close());

  const post = (route: string, body: unknown, token = alice.token) =>
    call<Record<string, unknown>>(server, route, { token, body });

  it('document/update_metadata_setting stores the setting in the document parser_config', async () => {
    const metadata = [{ key: 'author', description: 'who wrote it' }];
    const res = await post('/v1/document/update_metadata_setting', { doc_id: docs[0].id, metadata });
    expect(res.body.code, res.body.message).toBe(0);
    expect(res.body.data).toMatchObject({ id: docs[0].id, parser_config: { metadata } });
    expect((await post('/v1/document/update_metadata_setting', { doc_id: docs[0].id })).body).toMatchObject({
      code: 101,
      message: 'required argument are missing: metadata; ',
    });
    const foreign = await post(
      '/v1/document/update_metadata_setting',
      { doc_id: docs[0].id, metadata },
      bob.token,
    );
    expect(foreign.body.code).toBe(109);
  });

  it('document/metadata/summary counts values per key', async () => {
    const res = await post('/v1/document/metadata/summary', { kb_id: kbId });
    expect(res.body.code, res.body.message).toBe(0);
    expect(res.body.data).toEqual({
      summary: {
        author: [
          ['Ann', 2],
          ['Bo', 1],
        ],
        year: [['2020', 1]],
        tags: [
          ['x', 1],
          ['y', 1],
        ],
      },
    });
    const some = await post('/v1/document/metadata/summary', { kb_id: kbId, doc_ids: [docs[2].id] });
    expect(some.body.data).toEqual({ summary: { author: [['Bo', 1]] } });
    expect((await post('/v1/document/metadata/summary', {})).body).toMatchObject({
      code: 101,
      message: 'Lack of "KB ID"',
    });
    expect((await post('/v1/document/metadata/summary', { kb_id: kbId }, bob.token)).body).toMatchObject({
      code: 103,
      message: 'Only owner of dataset authorized for this operation.',
    });
  });

  it('document/metadata/update applies updates and deletes to the listed documents', async () => {
    const bad = async (body: Record<string, unknown>, message: string) =>
      expect(
        (await post('/v1/document/metadata/update', { kb_id: kbId, doc_ids: [], ...body })).body,
      ).toMatchObject({ code: 101, message });
    await bad({ updates: 'x' }, 'updates and deletes must be lists.');
    await bad({ updates: [{ key: 'k' }] }, 'Each update requires key and value.');
    await bad({ deletes: [{}] }, 'Each delete requires key.');
    const res = await post('/v1/document/metadata/update', {
      kb_id: kbId,
      doc_ids: [docs[0].id, docs[1].id],
      updates: [{ key: 'status', value: 'final' }],
      deletes: [{ key: 'year' }],
    });
    expect(res.body).toEqual({ code: 0, message: 'success', data: { updated: 2, matched_docs: 2 } });
    const infos = await call<Array<{ id: string; meta_fields: unknown }>>(server, '/v1/document/infos', {
      token: alice.token,
      body: { doc_ids: [docs[0].id, docs[2].id] },
    });
    expect(infos.body.data!.map((d) => d.meta_fields)).toEqual([
      { author: 'Ann', status: 'final' },
      { author: 'Bo' },
    ]);
    const foreign = await post(
      '/v1/document/metadata/update',
      { kb_id: kbId, doc_ids: [docs[0].id], updates: [{ key: 'k', value: 1 }] },
      bob.token,
    );
    expect(foreign.body.code).toBe(103);
  });

  it('document/upload_info stores an attachment that only its owner downloads', async () => {
    const res = await upload(
      server,
      alice.token,
      {},
      [{ name: 'notes.md', data: '# Title\n\nBody' }],
      '/v1/document/upload_info',
    );
    expect(res.body.code, res.body.message).toBe(0);
    const att = res.body.data as Record<string, unknown>;
    expect(att).toMatchObject({ name: 'notes.md', size: 13, extension: 'md', created_by: alice.id });
    const got = await fetch(`${server.url}/v1/document/download/${String(att.id)}?ext=markdown`, {
      headers: { Authorization: alice.token },
    });
    expect(got.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(await got.text()).toBe('# Title\n\nBody');
    const foreign = await call(server, `/v1/document/download/${String(att.id)}`, { token: bob.token });
    expect(foreign.body).toMatchObject({ code: 102, message: 'Attachment not found!' });
    const none = await upload(server, alice.token, {}, [], '/v1/document/upload_info');
    expect(none.body).toMatchObject({ code: 101, message: 'No file part!' });
  });
});

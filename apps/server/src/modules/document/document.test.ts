import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { makePdf, textPages } from '../../ingest/testing/make-pdf.js';
import { createKb, joinTeam, listDocs, upload, uploadDocs, type DocRow } from '../kb/test-support.js';

type Doc = Record<string, unknown>;

describe('documents: upload, list, edit (API.md §6)', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let kbId: string;
  beforeAll(async () => {
    server = await startTestServer();
    alice = await newUser(server, 'alice');
    bob = await newUser(server, 'bob');
    kbId = await createKb(server, alice.token, { name: 'Library' });
  });
  afterAll(async () => server.close());

  it('stores uploads with unique sanitised names, types, methods, thumbnails and file-manager mirror entries', async () => {
    const png = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#208040' } })
      .png()
      .toBuffer();
    const res = await upload(server, alice.token, { kb_id: kbId }, [
      { name: 'notes.txt', data: 'hello world' },
      { name: 'notes.txt', data: 'hello again' },
      { name: '../../etc/pass\u0001wd.md', data: '# heading' },
      { name: 'photo.PNG', data: png },
      { name: 'report.pdf', data: makePdf(textPages(2, 5)) },
    ]);
    expect(res.body.code).toBe(0);
    const docs = res.body.data as Doc[];
    expect(docs.map((d) => d.name)).toEqual([
      'notes.txt',
      'notes(1).txt',
      'passwd.md',
      'photo.PNG',
      'report.pdf',
    ]);
    expect(docs.map((d) => d.type)).toEqual(['doc', 'doc', 'doc', 'visual', 'pdf']);
    expect(docs.map((d) => d.suffix)).toEqual(['txt', 'txt', 'md', 'png', 'pdf']);
    expect(docs.map((d) => d.parser_id)).toEqual(['naive', 'naive', 'naive', 'picture', 'naive']);
    expect(docs[0]).toMatchObject({
      kb_id: kbId,
      size: 11,
      run: '0',
      status: '1',
      progress: 0,
      source_type: 'local',
      created_by: alice.id,
      chunk_num: 0,
    });
    expect(docs[0].parser_config).toMatchObject({ chunk_token_num: 512 });

    // Thumbnails: PNG, longest side ≤ 100 px, public image route.
    const thumbs = await call<Record<string, string>>(
      server,
      `/v1/document/thumbnails?doc_ids=${docs[3].id}&doc_ids=${docs[4].id}&doc_ids=${docs[0].id}`,
    );
    const map = thumbs.body.data as Record<string, string | null>;
    expect(map[docs[0].id as string]).toBeNull();
    for (const id of [docs[3].id, docs[4].id] as string[]) {
      expect(map[id]).toBe(`/v1/document/image/${kbId}-thumbnail_${id}.png`);
      const img = await fetch(`${server.url}${map[id]}`);
      expect(img.headers.get('content-type')).toBe('image/JPEG');
      const meta = await sharp(Buffer.from(await img.arrayBuffer())).metadata();
      expect(meta.format).toBe('png');
      expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(100);
    }
    expect((await call(server, '/v1/document/thumbnails')).body).toMatchObject({
      code: 101,
      message: 'Lack of "Document ID"',
    });
    // The image route never serves original uploads.
    expect((await call(server, `/v1/document/image/${kbId}-notes.txt`)).body).toMatchObject({
      code: 102,
      message: 'Image not found.',
    });

    // Raw bytes back with a content type from the extension.
    const raw = await fetch(`${server.url}/v1/document/get/${docs[1].id}`, {
      headers: { Authorization: alice.token },
    });
    expect(raw.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await raw.text()).toBe('hello again');
    expect((await call(server, `/v1/document/get/${docs[1].id}`, { token: bob.token })).body).toMatchObject({
      code: 102,
      message: 'Document not found!',
    });

    // Mirror: .knowledgebase/Library/<doc> linked by file2document.
    const db = server.ctx.db.kysely;
    const root = (await db.selectFrom('file').selectAll().where('tenant_id', '=', alice.id).execute()).find(
      (f) => f.id === f.parent_id,
    );
    const kbRoot = await db
      .selectFrom('file')
      .selectAll()
      .where('parent_id', '=', root!.id)
      .where('name', '=', '.knowledgebase')
      .executeTakeFirstOrThrow();
    expect(kbRoot).toMatchObject({ type: 'folder', source_type: 'knowledgebase' });
    const folder = await db
      .selectFrom('file')
      .selectAll()
      .where('parent_id', '=', kbRoot.id)
      .where('name', '=', 'Library')
      .executeTakeFirstOrThrow();
    const entries = await db.selectFrom('file').selectAll().where('parent_id', '=', folder.id).execute();
    expect(entries.map((e) => e.name).sort()).toEqual([
      'notes(1).txt',
      'notes.txt',
      'passwd.md',
      'photo.PNG',
      'report.pdf',
    ]);
    const links = await db
      .selectFrom('file2document')
      .selectAll()
      .where(
        'file_id',
        'in',
        entries.map((e) => e.id),
      )
      .execute();
    expect(links.map((l) => l.document_id).sort()).toEqual(docs.map((d) => d.id).sort());
    const kb = (await call<Doc>(server, `/v1/kb/detail?kb_id=${kbId}`, { token: alice.token })).body
      .data as Doc;
    expect(kb.doc_num).toBe(5);
    expect(kb.size).toBe(docs.reduce((s, d) => s + (d.size as number), 0));
  });

  it('answers upload errors with the contract messages', async () => {
    expect((await upload(server, alice.token, {}, [{ name: 'a.txt', data: 'x' }])).body).toMatchObject({
      code: 101,
      message: 'Lack of "KB ID"',
    });
    expect((await upload(server, alice.token, { kb_id: kbId }, [])).body).toMatchObject({
      code: 101,
      message: 'No file part!',
    });
    expect((await upload(server, alice.token, { kb_id: kbId }, [{ name: '', data: 'x' }])).body.code).toBe(
      101,
    );
    expect(
      (await upload(server, alice.token, { kb_id: kbId }, [{ name: `${'n'.repeat(252)}.txt`, data: 'x' }]))
        .body,
    ).toMatchObject({
      code: 101,
      message: 'File name must be 255 bytes or less.',
    });
    expect(
      (await upload(server, alice.token, { kb_id: 'f'.repeat(32) }, [{ name: 'a.txt', data: 'x' }])).body,
    ).toMatchObject({ code: 100, message: "Can't find this dataset!" });
    expect(
      (await upload(server, bob.token, { kb_id: kbId }, [{ name: 'a.txt', data: 'x' }])).body,
    ).toMatchObject({ code: 109, message: 'No authorization.' });
    const mixed = await upload(server, alice.token, { kb_id: kbId }, [
      { name: 'tool.exe', data: 'MZ' },
      { name: 'fine.txt', data: 'fine' },
    ]);
    expect(mixed.body.code).toBe(500);
    expect(mixed.body.message).toBe('tool.exe: This type of file has not been supported yet!');
    expect((mixed.body.data as Doc[]).map((d) => d.name)).toEqual(['fine.txt']);
  });

  it('lists with keywords, paging, ordering, time range and status/type/suffix/metadata filters', async () => {
    const kb = await createKb(server, alice.token, { name: 'Listing' });
    const docs: DocRow[] = [];
    for (const f of [
      { name: 'alpha.txt', data: 'a' },
      { name: 'beta.md', data: 'bb' },
      { name: 'gamma.txt', data: 'ccc' },
    ]) {
      docs.push(...(await uploadDocs(server, alice.token, kb, [f])));
      await new Promise((r) => setTimeout(r, 5));
    }
    await call(server, '/v1/document/set_meta', {
      token: alice.token,
      body: { doc_id: docs[0].id, meta: '{"lang":"en","year":2020}' },
    });
    await call(server, '/v1/document/set_meta', {
      token: alice.token,
      body: { doc_id: docs[1].id, meta: '{"lang":["fr","en"],"year":2024}' },
    });
    const list = async (query: string, body: unknown = {}) =>
      (
        await call<{ total: number; docs: DocRow[] }>(server, `/v1/document/list?kb_id=${kb}${query}`, {
          token: alice.token,
          body,
        })
      ).body;
    const names = async (query: string, body: unknown = {}) =>
      ((await list(query, body)).data as { docs: DocRow[] }).docs.map((d) => d.name);

    expect(await names('')).toEqual(['gamma.txt', 'beta.md', 'alpha.txt']);
    expect(await names('&desc=false')).toEqual(['alpha.txt', 'beta.md', 'gamma.txt']);
    expect(await names('&orderby=name&desc=false')).toEqual(['alpha.txt', 'beta.md', 'gamma.txt']);
    expect(await names('&orderby=size')).toEqual(['gamma.txt', 'beta.md', 'alpha.txt']);
    expect(await names('&keywords=ALP')).toEqual(['alpha.txt']);
    const page = (await list('&page=2&page_size=2&desc=false')).data as { total: number; docs: DocRow[] };
    expect(page.total).toBe(3);
    expect(page.docs.map((d) => d.name)).toEqual(['gamma.txt']);
    const first = (await list('')).data as { docs: DocRow[] };
    expect(first.docs[0]).toMatchObject({ nickname: 'alice', pipeline_name: null });
    expect(first.docs[0].thumbnail).toBeNull();
    const t1 = Number(docs[1].create_time);
    expect(await names(`&create_time_from=${t1}&desc=false`)).toEqual(['beta.md', 'gamma.txt']);
    expect(await names(`&create_time_to=${t1}&desc=false`)).toEqual(['alpha.txt', 'beta.md']);
    expect(await names('', { suffix: ['md'] })).toEqual(['beta.md']);
    expect(await names('', { types: ['doc'], run_status: ['0'] })).toHaveLength(3);
    expect(await names('', { run_status: ['3'] })).toEqual([]);
    expect(await names('', { metadata: { lang: 'en' } })).toEqual(['beta.md', 'alpha.txt']);
    expect(await names('', { metadata: { lang: ['fr'], year: 2024 } })).toEqual(['beta.md']);
    expect(
      await names('', {
        metadata_condition: {
          logic: 'and',
          conditions: [{ name: 'year', comparison_operator: '>', value: 2021 }],
        },
      }),
    ).toEqual(['beta.md']);
    expect(await names('', { return_empty_metadata: true })).toEqual(['gamma.txt']);

    expect(await list('', { run_status: ['9', '0'] })).toMatchObject({
      code: 102,
      message: 'Invalid filter run status conditions: 9',
    });
    expect(await list('', { types: ['zip'] })).toMatchObject({
      code: 102,
      message: 'Invalid filter conditions: zip type',
    });
    expect(await list('', { types: ['zip', 'rar'] })).toMatchObject({
      code: 102,
      message: 'Invalid filter conditions: zip, rar types',
    });
    expect(await list('', { metadata_condition: 'x' })).toMatchObject({
      code: 102,
      message: 'metadata_condition must be an object.',
    });
    expect(await list('', { metadata: [1] })).toMatchObject({
      code: 102,
      message: 'metadata must be an object.',
    });
    expect((await call(server, '/v1/document/list', { token: alice.token, body: {} })).body).toMatchObject({
      code: 101,
      message: 'Lack of "KB ID"',
    });
    expect(
      (await call(server, `/v1/document/list?kb_id=${kb}`, { token: bob.token, body: {} })).body,
    ).toMatchObject({
      code: 103,
      message: 'Only owner of dataset authorized for this operation.',
    });
    const filter = await call(server, '/v1/document/filter', { token: alice.token, body: { kb_id: kb } });
    expect(filter.body.data).toMatchObject({
      total: 3,
      filter: { run_status: { '0': 3 }, suffix: { txt: 2, md: 1 } },
    });
  });

  it('infos, rename, create, set_meta and change_status follow their rules', async () => {
    const kb = await createKb(server, alice.token, { name: 'Edits' });
    const [a, b] = await uploadDocs(server, alice.token, kb, [
      { name: 'a.txt', data: 'aaa' },
      { name: 'b.txt', data: 'bbb' },
    ]);
    const post = (route: string, body: unknown, token = alice.token) => call(server, route, { token, body });

    const infos = await post('/v1/document/infos', { doc_ids: [a.id, b.id] });
    expect((infos.body.data as Doc[]).map((d) => d.id)).toEqual([a.id, b.id]);
    expect((infos.body.data as Doc[])[0].meta_fields).toEqual({});
    expect((await post('/v1/document/infos', { doc_ids: [a.id] }, bob.token)).body).toMatchObject({
      code: 109,
      message: 'No authorization.',
    });

    expect((await post('/v1/document/rename', { doc_id: a.id, name: 'a.pdf' })).body).toMatchObject({
      code: 101,
      message: "The extension of file can't be changed",
    });
    expect((await post('/v1/document/rename', { doc_id: a.id, name: 'B.txt' })).body).toMatchObject({
      code: 102,
      message: 'Duplicated document name in the same dataset.',
    });
    expect(
      (await post('/v1/document/rename', { doc_id: a.id, name: `${'x'.repeat(256)}.txt` })).body,
    ).toMatchObject({ code: 101, message: 'File name must be 255 bytes or less.' });
    expect(
      (await post('/v1/document/rename', { doc_id: a.id, name: 'c.txt' }, bob.token)).body,
    ).toMatchObject({ code: 109 });
    expect((await post('/v1/document/rename', { doc_id: a.id, name: 'renamed.TXT' })).body).toMatchObject({
      code: 0,
      data: true,
    });
    const link = await server.ctx.db.kysely
      .selectFrom('file2document as l')
      .innerJoin('file as f', 'f.id', 'l.file_id')
      .select('f.name')
      .where('l.document_id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(link.name).toBe('renamed.TXT');

    const created = await post('/v1/document/create', { name: 'empty.txt', kb_id: kb });
    expect(created.body.data).toMatchObject({
      name: 'empty.txt',
      type: 'virtual',
      size: 0,
      kb_id: kb,
      run: '0',
    });
    expect((await post('/v1/document/create', { name: 'empty.txt', kb_id: kb })).body).toMatchObject({
      code: 102,
      message: 'Duplicated document name in the same dataset.',
    });
    expect((await post('/v1/document/create', { name: '  ', kb_id: kb })).body).toMatchObject({
      code: 101,
      message: "File name can't be empty.",
    });
    expect((await post('/v1/document/create', { name: 'x'.repeat(256), kb_id: kb })).body).toMatchObject({
      code: 101,
      message: 'File name must be 255 bytes or less.',
    });
    expect((await post('/v1/document/create', { name: 'x.txt', kb_id: '' })).body).toMatchObject({
      code: 101,
      message: 'Lack of "KB ID"',
    });
    expect((await post('/v1/document/create', { name: 'x.txt', kb_id: 'f'.repeat(32) })).body).toMatchObject({
      code: 102,
      message: "Can't find this dataset!",
    });
    expect((await post('/v1/document/create', { name: 'x.txt', kb_id: kb }, bob.token)).body).toMatchObject({
      code: 109,
    });
    expect((await post('/v1/document/create', { kb_id: kb })).body).toEqual({
      code: 101,
      message: 'required argument are missing: name; ',
    });

    const meta = (m: unknown) => post('/v1/document/set_meta', { doc_id: b.id, meta: m });
    expect((await meta('{"a": 1,')).body.message).toMatch(/^Json syntax error: /);
    expect((await meta('[1,2]')).body).toMatchObject({
      code: 101,
      message: 'Only dictionary type supported.',
    });
    expect((await meta('{"a": {"b": 1}}')).body).toMatchObject({
      code: 101,
      message: 'The type is not supported: {"b":1}',
    });
    expect((await meta('{"a": [1, {"b": 2}]}')).body).toMatchObject({
      code: 101,
      message: 'The type is not supported in list: [1,{"b":2}]',
    });
    expect((await meta('{"a": "x", "n": [1, "two"]}')).body).toMatchObject({ code: 0, data: true });
    expect((await post('/v1/document/set_meta', { doc_id: b.id, meta: '{}' }, bob.token)).body.code).toBe(
      109,
    );
    expect((await post('/v1/document/infos', { doc_ids: [b.id] })).body.data).toMatchObject([
      { meta_fields: { a: 'x', n: [1, 'two'] } },
    ]);

    expect((await post('/v1/document/change_status', { doc_ids: [a.id], status: '7' })).body).toMatchObject({
      code: 101,
      message: '"Status" must be either 0 or 1!',
    });
    expect((await post('/v1/document/change_status', { doc_ids: [a.id], status: '0' })).body).toEqual({
      code: 0,
      message: 'success',
      data: { [a.id]: { status: '0' } },
    });
    const partial = await post('/v1/document/change_status', {
      doc_ids: [b.id, 'f'.repeat(32)],
      status: '0',
    });
    expect(partial.body).toEqual({
      code: 500,
      message: 'Partial failure',
      data: { [b.id]: { status: '0' }, ['f'.repeat(32)]: { error: 'No authorization.' } },
    });
    const listed = await listDocs(server, alice.token, kb);
    expect(
      listed
        .filter((d) => d.status === '0')
        .map((d) => d.id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
  });

  it('team members of a team KB may use its documents; strangers may not', async () => {
    const carol = await newUser(server, 'carol');
    const teamKb = await createKb(server, alice.token, { name: 'Shared', permission: 'team' });
    const [doc] = await uploadDocs(server, alice.token, teamKb, [{ name: 's.txt', data: 'shared' }]);
    expect(
      (await call(server, '/v1/document/infos', { token: carol.token, body: { doc_ids: [doc.id] } })).body
        .code,
    ).toBe(109);
    await joinTeam(server, carol.id, alice.id, 'normal');
    expect(
      (await call(server, '/v1/document/infos', { token: carol.token, body: { doc_ids: [doc.id] } })).body
        .code,
    ).toBe(0);
    expect(
      (await upload(server, carol.token, { kb_id: teamKb }, [{ name: 'c.txt', data: 'from carol' }])).body
        .code,
    ).toBe(0);
    // The private KB stays private to her.
    expect(
      (await upload(server, carol.token, { kb_id: kbId }, [{ name: 'c.txt', data: 'x' }])).body.code,
    ).toBe(109);
  });

  it('removes documents with their blobs, links and counters; refuses foreign ids', async () => {
    const kb = await createKb(server, alice.token, { name: 'Removal' });
    const [a, b] = await uploadDocs(server, alice.token, kb, [
      { name: 'a.txt', data: 'aaa' },
      { name: 'b.pdf', data: makePdf(textPages(1, 3)) },
    ]);
    expect(
      (await call(server, '/v1/document/rm', { token: bob.token, body: { doc_id: a.id } })).body,
    ).toMatchObject({ code: 109, message: 'No authorization.' });
    expect(
      (await call(server, '/v1/document/rm', { token: alice.token, body: { doc_id: [a.id, b.id] } })).body,
    ).toEqual({ code: 0, message: 'success', data: true });
    expect(await listDocs(server, alice.token, kb)).toEqual([]);
    expect(await server.ctx.blobs.exists(`${kb}/a.txt`)).toBe(false);
    expect(await server.ctx.blobs.exists(`${kb}/thumbnail_${b.id}.png`)).toBe(false);
    expect(
      await server.ctx.db.kysely
        .selectFrom('file2document')
        .select('id')
        .where('document_id', 'in', [a.id, b.id])
        .execute(),
    ).toEqual([]);
    const kbRow = (await call<Doc>(server, `/v1/kb/detail?kb_id=${kb}`, { token: alice.token })).body
      .data as Doc;
    expect(kbRow.doc_num).toBe(0);
  });
});

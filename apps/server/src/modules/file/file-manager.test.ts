/**
 * The file manager over HTTP (API.md §12) with three accounts: the owner, a `normal` member of the
 * owner's team, and an outsider. Every route, its semantics and its refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { createKb, joinTeam, listDocs, upload } from '../kb/test-support.js';
import { fileBytes, listFolder, rootOf, uploadFiles, type FileEntry } from './test-support.js';

describe('file manager (API.md §12)', () => {
  let server: TestServer;
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let root: string;
  beforeAll(async () => {
    server = await startTestServer();
    owner = await newUser(server, 'owner');
    member = await newUser(server, 'member');
    outsider = await newUser(server, 'outsider');
    await joinTeam(server, member.id, owner.id);
    root = await rootOf(server, owner.token);
  });
  afterAll(async () => server.close());

  it('has one root per user, lists it with the read-only .knowledgebase mirror', async () => {
    expect(await rootOf(server, owner.token)).toBe(root);
    expect(await rootOf(server, member.token)).not.toBe(root);
    const kb = await createKb(server, owner.token, { name: 'Mirror KB' });
    await upload(server, owner.token, { kb_id: kb }, [{ name: 'm.txt', data: 'mirrored' }]);
    const list = await listFolder(server, owner.token);
    expect(list.parent_folder.id).toBe(root);
    const mirror = list.files.find((f) => f.name === '.knowledgebase')!;
    expect(mirror).toMatchObject({ type: 'folder', source_type: 'knowledgebase', has_child_folder: true });
    const kbFolders = await listFolder(server, owner.token, `parent_id=${mirror.id}`);
    const kbFolder = kbFolders.files.find((f) => f.name === 'Mirror KB')!;
    const entries = await listFolder(server, owner.token, `parent_id=${kbFolder.id}`);
    expect(entries.files.map((f) => f.name)).toEqual(['m.txt']);
    expect(entries.files[0]!.kbs_info[0]).toMatchObject({ kb_id: kb, kb_name: 'Mirror KB' });
    // Read-only: rm skips it silently, rename and upload into it are refused.
    expect(
      (await call(server, '/v1/file/rm', { token: owner.token, body: { file_ids: [entries.files[0]!.id] } }))
        .body.code,
    ).toBe(0);
    expect((await listFolder(server, owner.token, `parent_id=${kbFolder.id}`)).total).toBe(1);
    const rename = await call(server, '/v1/file/rename', {
      token: owner.token,
      body: { file_id: entries.files[0]!.id, name: 'x.txt' },
    });
    expect(rename.body.code).toBe(103);
    const into = await upload(
      server,
      owner.token,
      { parent_id: kbFolder.id },
      [{ name: 'a.txt', data: 'x' }],
      '/v1/file/upload',
    );
    expect(into.body.code).toBe(103);
  });

  it('uploads many files with relative paths, unique names per folder and types by extension', async () => {
    const stored = await uploadFiles(server, owner.token, [
      { name: 'a/b/c.txt', data: 'deep' },
      { name: 'a/b/c.txt', data: 'deep again' },
      { name: 'a/x.PDF', data: '%PDF-1.4 not really' },
      { name: 'song.mp3', data: 'ID3' },
      { name: 'blob.xyz', data: 'unknown' },
    ]);
    expect(stored.map((f) => [f.name, f.type])).toEqual([
      ['c.txt', 'doc'],
      ['c(1).txt', 'doc'],
      ['x.PDF', 'pdf'],
      ['song.mp3', 'aural'],
      ['blob.xyz', 'other'],
    ]);
    expect(stored[0]!.parent_id).toBe(stored[1]!.parent_id);
    const top = await listFolder(server, owner.token, 'keywords=a&page_size=100');
    const a = top.files.find((f) => f.name === 'a')!;
    expect(a).toMatchObject({ type: 'folder', has_child_folder: true, size: 4 + 10 + 19 });
    const chain = await call<{ parent_folders: FileEntry[] }>(
      server,
      `/v1/file/all_parent_folder?file_id=${stored[0]!.id}`,
      { token: owner.token },
    );
    expect(chain.body.data!.parent_folders.map((f) => f.name)).toEqual(['c.txt', 'b', 'a', '/']);
    const parent = await call<{ parent_folder: FileEntry }>(
      server,
      `/v1/file/parent_folder?file_id=${stored[0]!.id}`,
      {
        token: owner.token,
      },
    );
    expect(parent.body.data!.parent_folder.name).toBe('b');
    expect((await fileBytes(server, owner.token, stored[1]!.id)).text).toBe('deep again');
  });

  it('refuses path traversal and bad names cleanly, storing nothing', async () => {
    const before = (await listFolder(server, owner.token, 'page_size=1000')).total;
    for (const name of [
      '../evil.txt',
      '/etc/passwd',
      'C:\\x.txt',
      'a/../../b.txt',
      'nul\u0000.txt',
      `${'n'.repeat(300)}.txt`,
      'a//b.txt',
    ]) {
      const res = await upload(server, owner.token, {}, [{ name, data: 'x' }], '/v1/file/upload');
      expect(res.status, name).toBeLessThan(500);
      expect(res.body.code, name).toBe(101);
    }
    const empty = await upload(server, owner.token, {}, [], '/v1/file/upload');
    expect(empty.body).toMatchObject({ code: 101, message: 'No file part!' });
    for (const name of ['a/b', '..', '', `${'é'.repeat(200)}`]) {
      const res = await call(server, '/v1/file/create', {
        token: owner.token,
        body: { name, type: 'folder' },
      });
      expect(res.body.code, name).toBe(101);
    }
    expect((await listFolder(server, owner.token, 'page_size=1000')).total).toBe(before);
  });

  it('creates, renames, pages, searches folders and virtual files', async () => {
    const folder = await call<FileEntry>(server, '/v1/file/create', {
      token: owner.token,
      body: { name: 'Projects', type: 'folder' },
    });
    expect(folder.body.data).toMatchObject({ name: 'Projects', type: 'folder', parent_id: root });
    const dup = await call(server, '/v1/file/create', {
      token: owner.token,
      body: { name: 'projects', type: 'folder' },
    });
    expect(dup.body).toMatchObject({ code: 102, message: 'Duplicated folder name in the same folder.' });
    const missingParent = await call(server, '/v1/file/create', {
      token: owner.token,
      body: { name: 'x', parent_id: 'f'.repeat(32) },
    });
    expect(missingParent.body).toMatchObject({ code: 103, message: "Parent Folder Doesn't Exist!" });
    const virtual = await call<FileEntry>(server, '/v1/file/create', {
      token: owner.token,
      body: { name: 'note.md', parent_id: folder.body.data!.id },
    });
    expect(virtual.body.data!.type).toBe('virtual');
    const ext = await call(server, '/v1/file/rename', {
      token: owner.token,
      body: { file_id: virtual.body.data!.id, name: 'note.txt' },
    });
    expect(ext.body).toMatchObject({ code: 101, message: "The extension of file can't be changed" });
    const ren = await call(server, '/v1/file/rename', {
      token: owner.token,
      body: { file_id: folder.body.data!.id, name: 'Work' },
    });
    expect(ren.body.code).toBe(0);
    const paged = await listFolder(server, owner.token, 'page=1&page_size=2&orderby=name&desc=false');
    expect(paged.files).toHaveLength(2);
    expect(paged.total).toBeGreaterThan(2);
    const found = await listFolder(server, owner.token, 'keywords=WOR');
    expect(found.files.map((f) => f.name)).toEqual(['Work']);
  });

  it('moves files and merges folders; refuses moving a folder into itself or its child', async () => {
    const [x1] = await uploadFiles(server, owner.token, [{ name: 'src/inner/one.txt', data: '1' }]);
    const [x2] = await uploadFiles(server, owner.token, [{ name: 'dst/inner/two.txt', data: '2' }]);
    const top = await listFolder(server, owner.token, 'page_size=1000');
    const src = top.files.find((f) => f.name === 'src')!;
    const dst = top.files.find((f) => f.name === 'dst')!;
    const innerOfSrc = x1!.parent_id;
    const self = await call(server, '/v1/file/mv', {
      token: owner.token,
      body: { src_file_ids: [src.id], dest_file_id: src.id },
    });
    expect(self.body).toMatchObject({ code: 102, message: "Can't move a folder into itself." });
    const child = await call(server, '/v1/file/mv', {
      token: owner.token,
      body: { src_file_ids: [src.id], dest_file_id: innerOfSrc },
    });
    expect(child.body).toMatchObject({ code: 102, message: "Can't move a folder into itself." });
    // Merge: src/inner meets dst/inner.
    const mv = await call(server, '/v1/file/mv', {
      token: owner.token,
      body: { src_file_ids: [innerOfSrc], dest_file_id: dst.id },
    });
    expect(mv.body.code).toBe(0);
    const merged = await listFolder(server, owner.token, `parent_id=${x2!.parent_id}`);
    expect(merged.files.map((f) => f.name).sort()).toEqual(['one.txt', 'two.txt']);
    expect((await fileBytes(server, owner.token, x1!.id)).text).toBe('1');
    const notFolder = await call(server, '/v1/file/mv', {
      token: owner.token,
      body: { src_file_ids: [x1!.id], dest_file_id: x2!.id },
    });
    expect(notFolder.body).toMatchObject({ code: 102, message: 'Parent folder not found!' });
    const noSrc = await call(server, '/v1/file/mv', {
      token: owner.token,
      body: { src_file_ids: ['e'.repeat(32)], dest_file_id: dst.id },
    });
    expect(noSrc.body).toMatchObject({ code: 102, message: 'Source files not found!' });
  });

  it('links files to KBs by reference, re-links, unlinks, and removes documents with their files', async () => {
    const kb1 = await createKb(server, owner.token, { name: 'Link one' });
    const kb2 = await createKb(server, owner.token, { name: 'Link two' });
    const files = await uploadFiles(server, owner.token, [
      { name: 'lib/one.txt', data: 'first file' },
      { name: 'lib/sub/two.md', data: '# second' },
      { name: 'lib/skip.xyz', data: 'other' },
    ]);
    const lib = (
      await call<{ parent_folders: FileEntry[] }>(
        server,
        `/v1/file/all_parent_folder?file_id=${files[0]!.id}`,
        { token: owner.token },
      )
    ).body.data!.parent_folders[1]!;
    const other = await call(server, '/v1/file2document/convert', {
      token: owner.token,
      body: { file_ids: [files[2]!.id], kb_ids: [kb1] },
    });
    expect(other.body.code).toBe(101);
    const linked = await call<Array<{ file_id: string; document_id: string }>>(
      server,
      '/v1/file2document/convert',
      {
        token: owner.token,
        body: { file_ids: [lib.id], kb_ids: [kb1, kb2] },
      },
    );
    expect(linked.body.code, linked.body.message).toBe(0);
    expect(linked.body.data).toHaveLength(4);
    const docs1 = await listDocs(server, owner.token, kb1);
    expect(docs1.map((d) => d.name).sort()).toEqual(['one.txt', 'two.md']);
    const docBytes = await fetch(
      `${server.url}/v1/document/get/${docs1.find((d) => d.name === 'one.txt')!.id}`,
      {
        headers: { Authorization: owner.token },
      },
    );
    expect(await docBytes.text()).toBe('first file');
    const listed = await listFolder(server, owner.token, `parent_id=${lib.id}`);
    expect(
      listed.files
        .find((f) => f.name === 'one.txt')!
        .kbs_info.map((k) => k.kb_name)
        .sort(),
    ).toEqual(['Link one', 'Link two']);

    // Re-linking replaces the links: one.txt now only in kb2.
    await call(server, '/v1/file2document/convert', {
      token: owner.token,
      body: { file_ids: [files[0]!.id], kb_ids: [kb2] },
    });
    expect((await listDocs(server, owner.token, kb1)).map((d) => d.name)).toEqual(['two.md']);
    expect((await listDocs(server, owner.token, kb2)).map((d) => d.name).sort()).toEqual([
      'one.txt',
      'two.md',
    ]);

    // Removing a document keeps the file (the blob has another user).
    const one2 = (await listDocs(server, owner.token, kb2)).find((d) => d.name === 'one.txt')!;
    expect(
      (await call(server, '/v1/document/rm', { token: owner.token, body: { doc_id: one2.id } })).body.code,
    ).toBe(0);
    expect((await fileBytes(server, owner.token, files[0]!.id)).text).toBe('first file');

    // Unlink removes links and documents.
    const unlink = await call(server, '/v1/file2document/rm', {
      token: owner.token,
      body: { file_ids: [files[1]!.id] },
    });
    expect(unlink.body.code).toBe(0);
    expect(await listDocs(server, owner.token, kb1)).toHaveLength(0);
    const again = await call(server, '/v1/file2document/rm', {
      token: owner.token,
      body: { file_ids: [files[1]!.id] },
    });
    expect(again.body).toMatchObject({ code: 102, message: 'Inform not found!' });
    expect(
      (await call(server, '/v1/file2document/rm', { token: owner.token, body: { file_ids: [] } })).body,
    ).toMatchObject({
      code: 101,
      message: 'Lack of "Files ID"',
    });

    // Recursive delete removes the documents created from the files beneath.
    await call(server, '/v1/file2document/convert', {
      token: owner.token,
      body: { file_ids: [lib.id], kb_ids: [kb1] },
    });
    expect(await listDocs(server, owner.token, kb1)).toHaveLength(2);
    const rm = await call(server, '/v1/file/rm', { token: owner.token, body: { file_ids: [lib.id] } });
    expect(rm.body.code).toBe(0);
    expect(await listDocs(server, owner.token, kb1)).toHaveLength(0);
    expect((await fileBytes(server, owner.token, files[0]!.id)).text).toContain('Document not found!');
    const blobs = server.ctx.blobs;
    const rows = await server.ctx.db.kysely
      .selectFrom('file')
      .select('id')
      .where(
        'id',
        'in',
        files.map((f) => f.id),
      )
      .execute();
    expect(rows).toHaveLength(0);
    expect(await blobs.exists(`${files[0]!.parent_id}/${files[0]!.id}.txt`)).toBe(false);
  });

  it('serves user bytes safely', async () => {
    const [html, txt] = await uploadFiles(server, owner.token, [
      { name: 'page.html', data: '<script>alert(1)</script>' },
      { name: 'plain.txt', data: 'plain' },
    ]);
    const h = await fileBytes(server, owner.token, html!.id);
    expect(h.headers.get('x-content-type-options')).toBe('nosniff');
    expect(h.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(h.headers.get('content-type')).not.toMatch(/html/);
    const t = await fileBytes(server, owner.token, txt!.id);
    expect(t.text).toBe('plain');
    expect(t.headers.get('content-disposition')).toMatch(/^inline/);
  });

  it('team members read files linked to a team KB; nobody else touches another tenant’s entries', async () => {
    const teamKb = await createKb(server, owner.token, { name: 'Team KB', permission: 'team' });
    const privateKb = await createKb(server, owner.token, { name: 'Private KB' });
    const [shared, secret] = await uploadFiles(server, owner.token, [
      { name: 'shared.txt', data: 'for the team' },
      { name: 'secret.txt', data: 'mine' },
    ]);
    await call(server, '/v1/file2document/convert', {
      token: owner.token,
      body: { file_ids: [shared!.id], kb_ids: [teamKb] },
    });
    await call(server, '/v1/file2document/convert', {
      token: owner.token,
      body: { file_ids: [secret!.id], kb_ids: [privateKb] },
    });
    expect((await fileBytes(server, member.token, shared!.id)).text).toBe('for the team');
    expect(JSON.parse((await fileBytes(server, member.token, secret!.id)).text).code).toBe(109);
    expect(JSON.parse((await fileBytes(server, outsider.token, shared!.id)).text).code).toBe(109);

    // A member can link its own file to the team KB, but not touch the owner's files.
    const [mine] = await uploadFiles(server, member.token, [{ name: 'member.txt', data: 'from member' }]);
    const link = await call(server, '/v1/file2document/convert', {
      token: member.token,
      body: { file_ids: [mine!.id], kb_ids: [teamKb] },
    });
    expect(link.body.code, link.body.message).toBe(0);
    const outsiderLink = await call(server, '/v1/file2document/convert', {
      token: outsider.token,
      body: { file_ids: [shared!.id], kb_ids: [teamKb] },
    });
    expect(outsiderLink.body.code).toBe(109);

    const before = await server.ctx.db.kysely
      .selectFrom('file')
      .selectAll()
      .where('tenant_id', '=', owner.id)
      .execute();
    for (const who of [member, outsider]) {
      const attempts = [
        call(server, '/v1/file/rm', { token: who.token, body: { file_ids: [shared!.id] } }),
        call(server, '/v1/file/rename', {
          token: who.token,
          body: { file_id: shared!.id, name: 'hacked.txt' },
        }),
        call(server, '/v1/file/mv', {
          token: who.token,
          body: { src_file_ids: [shared!.id], dest_file_id: root },
        }),
        call(server, `/v1/file/list?parent_id=${root}`, { token: who.token }),
        call(server, '/v1/file/create', { token: who.token, body: { name: 'in-yours', parent_id: root } }),
        call(server, '/v1/file2document/rm', { token: who.token, body: { file_ids: [shared!.id] } }),
        call(server, `/v1/file/all_parent_folder?file_id=${secret!.id}`, { token: who.token }),
        call(server, `/v1/file/parent_folder?file_id=${secret!.id}`, { token: who.token }),
        upload(server, who.token, { parent_id: root }, [{ name: 'x.txt', data: 'x' }], '/v1/file/upload'),
      ];
      for (const res of await Promise.all(attempts)) expect(res.body.code, res.body.message).toBe(109);
    }
    const after = await server.ctx.db.kysely
      .selectFrom('file')
      .selectAll()
      .where('tenant_id', '=', owner.id)
      .execute();
    expect(after).toEqual(before);

    // Removed from the team: access goes at once.
    await call(server, `/v1/tenant/${owner.id}/user/${member.id}`, { token: owner.token, method: 'DELETE' });
    expect(JSON.parse((await fileBytes(server, member.token, shared!.id)).text).code).toBe(109);
  });

  it('applies the per-batch limit with its message', async () => {
    const files = Array.from({ length: server.ctx.config.maxFilesPerBatch + 1 }, (_, i) => ({
      name: `f${i}.txt`,
      data: 'x',
    }));
    const res = await upload(server, owner.token, {}, files, '/v1/file/upload');
    expect(res.body.code).toBe(101);
    expect(res.body.message).toMatch(/Too many files in one upload/);
  });
});

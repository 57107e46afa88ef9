/**
 * The file manager's API-key twin `/api/v1/file/*` and `/api/v1/file2document/*` (API.md §17, §12)
 * over HTTP: the §17 header rules, the whole folder/file flow with an API key, the `{code, data}`
 * success shape, and another tenant's key refused with §12's answers, its data left as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { api, apiKeyOf, type PublicAnswer } from './test-support.js';

interface FileRow {
  id: string;
  parent_id: string;
  tenant_id: string;
  name: string;
  type: string;
  size: number;
  kbs_info?: Array<{ kb_id: string; kb_name: string; document_id: string }>;
}
interface Listing {
  total: number;
  files: FileRow[];
  parent_folder: FileRow;
}

async function uploadTo(
  server: TestServer,
  key: string,
  files: Array<{ name: string; data: string }>,
  parentId?: string,
): Promise<PublicAnswer<FileRow[]>> {
  const form = new FormData();
  if (parentId) form.append('parent_id', parentId);
  for (const f of files) form.append('file', new Blob([Buffer.from(f.data)]), f.name);
  const res = await fetch(`${server.url}/api/v1/file/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}` },
    body: form,
  });
  return (await res.json()) as PublicAnswer<FileRow[]>;
}

async function bytesOf(server: TestServer, key: string, fileId: string) {
  const res = await fetch(`${server.url}/api/v1/file/get/${fileId}`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

describe('/api/v1/file — the file manager with an API key', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let key: string;
  let bobKey: string;
  beforeAll(async () => {
    server = await startTestServer();
    alice = await newUser(server, 'alice');
    bob = await newUser(server, 'bob');
    key = await apiKeyOf(server, alice);
    bobKey = await apiKeyOf(server, bob);
  });
  afterAll(async () => server.close());

  it('answers the Authorization header errors exactly as §17 says', async () => {
    expect(await api(server, null, 'GET', '/api/v1/file/root_folder')).toEqual({
      code: 0,
      data: false,
      message: "`Authorization` can't be empty",
    });
    expect(await api(server, 'lectern-unknown', 'POST', '/api/v1/file/rm', { file_ids: ['x'] })).toEqual({
      code: 109,
      data: false,
      message: 'Authentication error: API key is invalid!',
    });
    // A session token is not an API key here.
    expect((await api(server, `Bearer ${alice.token}`, 'GET', '/api/v1/file/list')).code).toBe(109);
    const noKey = await fetch(`${server.url}/api/v1/file/upload`, { method: 'POST', body: new FormData() });
    expect(await noKey.json()).toEqual({ code: 0, data: false, message: "`Authorization` can't be empty" });
  });

  it('creates a folder, uploads, lists, reads bytes, renames, moves and removes', async () => {
    const root = await api<{ root_folder: FileRow }>(server, key, 'GET', '/api/v1/file/root_folder');
    expect(Object.keys(root).sort()).toEqual(['code', 'data']);
    const rootId = root.data!.root_folder.id;
    expect(root.data!.root_folder).toMatchObject({ name: '/', type: 'folder', tenant_id: alice.id });

    const made = await api<FileRow>(server, key, 'POST', '/api/v1/file/create', {
      name: 'Reports',
      type: 'folder',
    });
    expect(made).toEqual({ code: 0, data: expect.objectContaining({ name: 'Reports', type: 'folder' }) });
    const folder = made.data!;
    expect(folder.parent_id).toBe(rootId);
    expect(
      await api(server, key, 'POST', '/api/v1/file/create', { name: 'Reports', type: 'folder' }),
    ).toMatchObject({ code: 102, message: 'Duplicated folder name in the same folder.' });
    expect(await api(server, key, 'POST', '/api/v1/file/create', {})).toMatchObject({ code: 101 });

    const up = await uploadTo(
      server,
      key,
      [
        { name: 'q1.txt', data: 'first quarter' },
        { name: 'q1.txt', data: 'again' },
        { name: 'raw/q2.md', data: '# second' },
      ],
      folder.id,
    );
    expect(up.code, up.message).toBe(0);
    expect(up.data!.map((f) => f.name)).toEqual(['q1.txt', 'q1(1).txt', 'q2.md']);
    const [q1, q1b, q2] = up.data!;
    expect((await uploadTo(server, key, [], folder.id)).code).toBe(101);

    const list = await api<Listing>(server, key, 'GET', `/api/v1/file/list?parent_id=${folder.id}`);
    expect(list.code, list.message).toBe(0);
    expect(list.data!.parent_folder.id).toBe(folder.id);
    expect(list.data!.files.map((f) => f.name).sort()).toEqual(['q1(1).txt', 'q1.txt', 'raw']);
    const raw = list.data!.files.find((f) => f.name === 'raw')!;
    expect(raw).toMatchObject({ type: 'folder', size: '# second'.length });
    expect(q2!.parent_id).toBe(raw.id);
    expect(await api(server, key, 'GET', `/api/v1/file/list?parent_id=${'0'.repeat(32)}`)).toMatchObject({
      code: 102,
      message: 'Folder not found!',
    });

    expect(await bytesOf(server, key, q1!.id)).toMatchObject({ status: 200, text: 'first quarter' });
    expect(JSON.parse((await bytesOf(server, key, folder.id)).text)).toMatchObject({
      code: 102,
      message: 'Document not found!',
    });

    const chain = await api<{ parent_folders: FileRow[] }>(
      server,
      key,
      'GET',
      `/api/v1/file/all_parent_folder?file_id=${q2!.id}`,
    );
    expect(chain.data!.parent_folders.map((f) => f.name)).toEqual(['q2.md', 'raw', 'Reports', '/']);
    const parent = await api<{ parent_folder: FileRow }>(
      server,
      key,
      'GET',
      `/api/v1/file/parent_folder?file_id=${q2!.id}`,
    );
    expect(parent.data!.parent_folder.id).toBe(raw.id);

    expect(
      await api(server, key, 'POST', '/api/v1/file/rename', { file_id: q1!.id, name: 'q1-final.txt' }),
    ).toEqual({ code: 0, data: true });
    expect(
      await api(server, key, 'POST', '/api/v1/file/rename', { file_id: q1!.id, name: 'q1-final.pdf' }),
    ).toMatchObject({ code: 101, message: "The extension of file can't be changed" });

    expect(
      await api(server, key, 'POST', '/api/v1/file/mv', { src_file_ids: [q1!.id], dest_file_id: raw.id }),
    ).toEqual({ code: 0, data: true });
    expect(
      await api(server, key, 'POST', '/api/v1/file/mv', {
        src_file_ids: [folder.id],
        dest_file_id: raw.id,
      }),
    ).toMatchObject({ code: 102, message: "Can't move a folder into itself." });
    const inRaw = await api<Listing>(server, key, 'GET', `/api/v1/file/list?parent_id=${raw.id}`);
    expect(inRaw.data!.files.map((f) => f.name).sort()).toEqual(['q1-final.txt', 'q2.md']);

    expect(await api(server, key, 'POST', '/api/v1/file/rm', { file_ids: [q1b!.id] })).toEqual({
      code: 0,
      data: true,
    });
    expect((await bytesOf(server, key, q1b!.id)).text).toMatch(/"code":102/);
    expect(await api(server, key, 'POST', '/api/v1/file/rm', { file_ids: [folder.id] })).toEqual({
      code: 0,
      data: true,
    });
    expect(await api(server, key, 'GET', `/api/v1/file/list?parent_id=${folder.id}`)).toMatchObject({
      code: 102,
      message: 'Folder not found!',
    });
    expect((await bytesOf(server, key, q2!.id)).text).toMatch(/"code":102/);
    expect(await api(server, key, 'POST', '/api/v1/file/rm', { file_ids: [q1!.id] })).toMatchObject({
      code: 102,
      message: 'File or Folder not found!',
    });
  });

  it('links a file to a dataset and unlinks it (file2document twins)', async () => {
    const dataset = await api<{ id: string }>(server, key, 'POST', '/api/v1/datasets', { name: 'Linked' });
    const [file] = (await uploadTo(server, key, [{ name: 'linked.txt', data: 'linked words' }])).data!;
    const links = await api<Array<{ file_id: string; document_id: string; kb_id: string }>>(
      server,
      key,
      'POST',
      '/api/v1/file2document/convert',
      { file_ids: [file!.id], kb_ids: [dataset.data!.id] },
    );
    expect(links.code, links.message).toBe(0);
    expect(links.data).toEqual([
      expect.objectContaining({
        file_id: file!.id,
        kb_id: dataset.data!.id,
        document_id: expect.any(String),
      }),
    ]);
    const docs = await api<{ docs: Array<{ id: string; name: string }> }>(
      server,
      key,
      'GET',
      `/api/v1/datasets/${dataset.data!.id}/documents`,
    );
    expect(docs.data!.docs).toEqual([expect.objectContaining({ id: links.data![0]!.document_id })]);
    const root = await api<Listing>(server, key, 'GET', '/api/v1/file/list');
    expect(root.data!.files.find((f) => f.id === file!.id)!.kbs_info).toEqual([
      { kb_id: dataset.data!.id, kb_name: 'Linked', document_id: links.data![0]!.document_id },
    ]);
    expect(
      await api(server, key, 'POST', '/api/v1/file2document/convert', {
        file_ids: [file!.id],
        kb_ids: ['0'.repeat(32)],
      }),
    ).toMatchObject({ code: 102 });

    expect(await api(server, key, 'POST', '/api/v1/file2document/rm', { file_ids: [file!.id] })).toEqual({
      code: 0,
      data: true,
    });
    const after = await api<{ docs: unknown[] }>(
      server,
      key,
      'GET',
      `/api/v1/datasets/${dataset.data!.id}/documents`,
    );
    expect(after.data!.docs).toEqual([]);
    expect(await api(server, key, 'POST', '/api/v1/file2document/rm', {})).toMatchObject({
      code: 101,
      message: 'Lack of "Files ID"',
    });
  });

  it("never lets another tenant's key reach the files (109, data unchanged)", async () => {
    const folder = (
      await api<FileRow>(server, key, 'POST', '/api/v1/file/create', {
        name: 'Private',
        type: 'folder',
      })
    ).data!;
    const [secret] = (await uploadTo(server, key, [{ name: 'secret.txt', data: 'top secret' }], folder.id))
      .data!;
    const bobRoot = (await api<{ root_folder: FileRow }>(server, bobKey, 'GET', '/api/v1/file/root_folder'))
      .data!.root_folder;
    expect(bobRoot.tenant_id).toBe(bob.id);
    const before = await server.ctx.db.kysely
      .selectFrom('file')
      .selectAll()
      .where('tenant_id', '=', alice.id)
      .orderBy('id')
      .execute();

    const refused = { code: 109, message: 'No authorization.' };
    const attempts = [
      api(server, bobKey, 'GET', `/api/v1/file/list?parent_id=${folder.id}`),
      api(server, bobKey, 'POST', '/api/v1/file/create', { name: 'intruder', parent_id: folder.id }),
      api(server, bobKey, 'POST', '/api/v1/file/rm', { file_ids: [secret!.id] }),
      api(server, bobKey, 'POST', '/api/v1/file/rename', { file_id: secret!.id, name: 'mine.txt' }),
      api(server, bobKey, 'POST', '/api/v1/file/mv', {
        src_file_ids: [secret!.id],
        dest_file_id: bobRoot.id,
      }),
      api(server, bobKey, 'GET', `/api/v1/file/all_parent_folder?file_id=${secret!.id}`),
      api(server, bobKey, 'GET', `/api/v1/file/parent_folder?file_id=${secret!.id}`),
      api(server, bobKey, 'POST', '/api/v1/file2document/rm', { file_ids: [secret!.id] }),
      uploadTo(server, bobKey, [{ name: 'x.txt', data: 'x' }], folder.id),
    ];
    for (const answer of await Promise.all(attempts)) expect(answer).toMatchObject(refused);
    expect(JSON.parse((await bytesOf(server, bobKey, secret!.id)).text)).toMatchObject(refused);
    // Bob's own listing shows none of Alice's entries.
    const bobList = await api<Listing>(server, bobKey, 'GET', '/api/v1/file/list');
    expect(bobList.data!.files.filter((f) => f.tenant_id !== bob.id)).toEqual([]);

    const after = await server.ctx.db.kysely
      .selectFrom('file')
      .selectAll()
      .where('tenant_id', '=', alice.id)
      .orderBy('id')
      .execute();
    expect(after).toEqual(before);
    expect(await bytesOf(server, key, secret!.id)).toMatchObject({ status: 200, text: 'top secret' });
  });
});

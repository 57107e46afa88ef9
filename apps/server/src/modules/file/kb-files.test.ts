/**
 * `file/kb_files` over HTTP: the files linked to a knowledge base with their documents, paged and
 * searchable; readable by the owner and by team members of a team KB, refused to outsiders and for
 * private KBs of others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { createKb, joinTeam } from '../kb/test-support.js';
import { uploadFiles } from './test-support.js';

interface Linked {
  id: string;
  name: string;
  document_id: string;
  run: string;
}

describe('file/kb_files', () => {
  let server: TestServer;
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  beforeAll(async () => {
    server = await startTestServer();
    owner = await newUser(server, 'owner');
    member = await newUser(server, 'member');
    outsider = await newUser(server, 'outsider');
    await joinTeam(server, member.id, owner.id);
  });
  afterAll(async () => server.close());

  const kbFiles = (token: string, query: string) =>
    call<{ total: number; files: Linked[] }>(server, `/v1/file/kb_files?${query}`, { token });

  it('lists the linked files with their documents, paged and searchable; others are refused', async () => {
    const teamKb = await createKb(server, owner.token, { name: 'Team KB', permission: 'team' });
    const privateKb = await createKb(server, owner.token, { name: 'Private KB' });
    const files = await uploadFiles(server, owner.token, [
      { name: 'alpha.txt', data: 'alpha' },
      { name: 'beta.txt', data: 'beta' },
      { name: 'gamma.md', data: 'gamma' },
    ]);
    const linked = await call<Array<{ file_id: string; document_id: string }>>(
      server,
      '/v1/file2document/convert',
      {
        token: owner.token,
        body: { file_ids: files.map((f) => f.id), kb_ids: [teamKb] },
      },
    );
    expect(linked.body.code, linked.body.message).toBe(0);

    const all = await kbFiles(owner.token, `kb_id=${teamKb}`);
    expect(all.body.code).toBe(0);
    expect(all.body.data!.total).toBe(3);
    expect(all.body.data!.files.map((f) => f.name)).toEqual(['alpha.txt', 'beta.txt', 'gamma.md']);
    const alphaLink = linked.body.data!.find((l) => l.file_id === files[0]!.id)!;
    expect(all.body.data!.files[0]).toMatchObject({
      id: files[0]!.id,
      document_id: alphaLink.document_id,
      run: '0',
    });

    const page2 = await kbFiles(owner.token, `kb_id=${teamKb}&page=2&page_size=2`);
    expect(page2.body.data!.files.map((f) => f.name)).toEqual(['gamma.md']);
    const search = await kbFiles(owner.token, `kb_id=${teamKb}&keywords=ET`);
    expect(search.body.data!.files.map((f) => f.name)).toEqual(['beta.txt']);

    expect((await kbFiles(member.token, `kb_id=${teamKb}`)).body.data!.total).toBe(3);
    expect((await kbFiles(owner.token, `kb_id=${privateKb}`)).body.data!.total).toBe(0);
    // Existing but not theirs: the policy's 109; unknown: 102.
    for (const [token, kb] of [
      [outsider.token, teamKb],
      [member.token, privateKb],
    ] as const) {
      const refused = await kbFiles(token, `kb_id=${kb}`);
      expect(refused.body).toMatchObject({ code: 109, message: 'No authorization.' });
    }
    const unknown = await kbFiles(owner.token, `kb_id=${'f'.repeat(32)}`);
    expect(unknown.body).toMatchObject({ code: 102, message: "Can't find this dataset!" });
  });
});

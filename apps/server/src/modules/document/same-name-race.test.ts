/**
 * Issue 11.3: parallel uploads of one name into one KB. Every upload must succeed with its own
 * name and its own blob, and removing one document must leave the others readable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { createKb, listDocs, upload } from '../kb/test-support.js';

describe('same-name uploads race (issue 11.3)', () => {
  let server: TestServer;
  let alice: TestUser;
  beforeAll(async () => {
    server = await startTestServer();
    alice = await newUser(server, 'alice');
  });
  afterAll(async () => server.close());

  it('20 parallel uploads of same.txt get 20 names and 20 blobs; removing one keeps the rest', async () => {
    const kbId = await createKb(server, alice.token);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        upload(server, alice.token, { kb_id: kbId }, [{ name: 'same.txt', data: `content number ${i}` }]),
      ),
    );
    for (const a of answers) expect(a.body).toMatchObject({ code: 0 });
    const docs = answers.flatMap((a) => a.body.data as Array<{ id: string; name: string; location: string }>);
    expect(docs).toHaveLength(20);
    expect(new Set(docs.map((d) => d.name.toLowerCase())).size).toBe(20);
    expect(docs.map((d) => d.name)).toContain('same.txt');
    expect(new Set(docs.map((d) => d.location)).size).toBe(20);

    // Each document reads back its own bytes.
    const bodies = new Map<string, string>();
    for (const d of docs) {
      const res = await fetch(`${server.url}/v1/document/get/${d.id}`, {
        headers: { Authorization: alice.token },
      });
      bodies.set(d.id, await res.text());
    }
    expect(new Set(bodies.values()).size).toBe(20);

    const [gone, ...kept] = docs;
    const rm = await call(server, '/v1/document/rm', { token: alice.token, body: { doc_id: gone!.id } });
    expect(rm.body.code).toBe(0);
    for (const d of kept) {
      const res = await fetch(`${server.url}/v1/document/get/${d.id}`, {
        headers: { Authorization: alice.token },
      });
      expect(await res.text()).toBe(bodies.get(d.id));
    }
    expect(await listDocs(server, alice.token, kbId)).toHaveLength(19);
  });
});

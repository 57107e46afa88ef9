/**
 * `file/import_s3` against an s3rver stand-in on 127.0.0.1 (the real S3 protocol, signed by the real
 * AWS SDK client, every request through the outbound guard): objects under a prefix land in a folder
 * with their relative paths, bad keys are skipped with a reason, wrong keys and unknown buckets are
 * clean errors, foreign folders are refused, and without LECTERN_SSRF_ALLOW the loopback endpoint is
 * refused by the guard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { S3RVER_KEYS, startS3StandIn, type S3StandIn } from './test-s3-stand-in.js';
import { relativeKey } from './s3-import.js';
import { fileBytes, listFolder, type FileEntry } from './test-support.js';

const BUCKET = 'import-src';
const KEYS = S3RVER_KEYS;
let s3: S3StandIn;
let endpoint: string;
let server: TestServer;
let owner: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  const objects: Record<string, string> = {
    'docs/readme.md': '# Read me',
    'docs/guides/setup guide.txt': 'Install, then run.',
    'docs/guides/deep/notes (v2).txt': 'Deeper notes',
    'docs/folder-marker/': '',
    'other/skip.txt': 'not under the prefix',
  };
  s3 = await startS3StandIn(BUCKET, objects);
  endpoint = s3.endpoint;
  server = await startTestServer();
  owner = await newUser(server, 'owner');
  outsider = await newUser(server, 'outsider');
});

afterAll(async () => {
  await server?.close();
  await s3?.close();
});

function importS3(token: string, body: Record<string, unknown>, target = server) {
  return call<{ files: FileEntry[]; skipped: { key: string; reason: string }[] }>(
    target,
    '/v1/file/import_s3',
    { token, method: 'POST', body },
  );
}

async function folderNamed(token: string, parent: string | undefined, name: string) {
  const list = await listFolder(server, token, parent ? `parent_id=${parent}` : '');
  return list.files.find((f) => f.name === name);
}

describe('file/import_s3', () => {
  it('maps keys below the prefix to relative paths', () => {
    expect(relativeKey('docs/a/b.txt', 'docs/')).toBe('a/b.txt');
    expect(relativeKey('docs/a/b.txt', 'docs/a')).toBe('a/b.txt');
    expect(relativeKey('docs/a/b.txt', '')).toBe('docs/a/b.txt');
  });

  it('copies the objects under the prefix into a folder, creating the sub-folders', async () => {
    const created = await call<{ id: string }>(server, '/v1/file/create', {
      token: owner.token,
      method: 'POST',
      body: { name: 'From S3', type: 'folder' },
    });
    const target = created.body.data!.id;
    const res = await importS3(owner.token, {
      endpoint,
      bucket: BUCKET,
      prefix: 'docs/',
      ...KEYS,
      parent_id: target,
    });
    expect(res.body.code, res.body.message).toBe(0);
    expect(res.body.data!.files.map((f) => f.name).sort()).toEqual([
      'notes (v2).txt',
      'readme.md',
      'setup guide.txt',
    ]);
    expect(res.body.data!.skipped).toEqual([]);

    const top = await listFolder(server, owner.token, `parent_id=${target}`);
    expect(top.files.map((f) => f.name).sort()).toEqual(['guides', 'readme.md']);
    const guides = top.files.find((f) => f.name === 'guides')!;
    const inGuides = await listFolder(server, owner.token, `parent_id=${guides.id}`);
    expect(inGuides.files.map((f) => f.name).sort()).toEqual(['deep', 'setup guide.txt']);
    const deep = (await folderNamed(owner.token, guides.id, 'deep'))!;
    const notes = (await listFolder(server, owner.token, `parent_id=${deep.id}`)).files[0]!;
    expect(notes).toMatchObject({ name: 'notes (v2).txt', type: 'doc', size: 12 });
    expect((await fileBytes(server, owner.token, notes.id)).text).toBe('Deeper notes');

    // A second import of the same prefix keeps both copies (unique names per folder).
    const again = await importS3(owner.token, {
      endpoint,
      bucket: BUCKET,
      prefix: 'docs/readme',
      ...KEYS,
      parent_id: target,
    });
    expect(again.body.code, again.body.message).toBe(0);
    expect(again.body.data!.files.map((f) => f.name)).toEqual(['readme(1).md']);
  });

  it('answers wrong keys, unknown buckets and bad endpoints with clean errors and stores nothing', async () => {
    const before = (await listFolder(server, owner.token)).total;
    const wrongKey = await importS3(owner.token, {
      endpoint,
      bucket: BUCKET,
      access_key: 'nobody',
      secret_key: 'wrong',
    });
    expect(wrongKey.status).toBe(200);
    expect(wrongKey.body.code).toBe(102);
    expect(wrongKey.body.message).toMatch(/S3 endpoint refused/);
    const noBucket = await importS3(owner.token, { endpoint, bucket: 'no-such-bucket', ...KEYS });
    expect(noBucket.body.code).toBe(102);
    expect(noBucket.body.message).toMatch(/NoSuchBucket/);
    const badUrl = await importS3(owner.token, { endpoint: 'not a url', bucket: BUCKET, ...KEYS });
    expect(badUrl.body).toMatchObject({ code: 101 });
    const ftp = await importS3(owner.token, { endpoint: 'ftp://127.0.0.1/', bucket: BUCKET, ...KEYS });
    expect(ftp.body).toMatchObject({ code: 101 });
    const missing = await importS3(owner.token, { bucket: BUCKET, ...KEYS });
    expect(missing.body.code).toBe(101);
    expect((await listFolder(server, owner.token)).total).toBe(before);
  });

  it("refuses another user's folder as the destination", async () => {
    const foreign = await call<{ id: string }>(server, '/v1/file/create', {
      token: outsider.token,
      method: 'POST',
      body: { name: 'Mine', type: 'folder' },
    });
    const res = await importS3(owner.token, {
      endpoint,
      bucket: BUCKET,
      prefix: 'docs/',
      ...KEYS,
      parent_id: foreign.body.data!.id,
    });
    expect(res.body.code).not.toBe(0);
    expect((await listFolder(server, outsider.token, `parent_id=${foreign.body.data!.id}`)).total).toBe(0);
  });

  it('goes through the outbound guard: a loopback endpoint is refused unless allowed', async () => {
    const guarded = await startTestServer({ LECTERN_SSRF_ALLOW: '' });
    try {
      const user = await newUser(guarded, 'guarded');
      const res = await importS3(user.token, { endpoint, bucket: BUCKET, prefix: 'docs/', ...KEYS }, guarded);
      expect(res.body.code).toBe(101);
      expect(res.body.message).toMatch(/127\.0\.0\.1/);
    } finally {
      await guarded.close();
    }
  });
});

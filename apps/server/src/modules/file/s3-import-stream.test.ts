/**
 * `file/import_s3` with `stream: true` against an s3rver stand-in on 127.0.0.1: progress events per
 * object ("3/4"), skipped objects with their reasons, the `finished` summary and the terminator;
 * refusals before the first object stay one JSON answer; closing the stream cancels the import
 * (objects stored so far stay, no more are stored); the plain JSON form still answers as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3ImportEvent } from '@lectern/shared';
import { parseSse } from '../../chat/sse.js';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { S3RVER_KEYS, startS3StandIn, type S3StandIn } from './test-s3-stand-in.js';
import { listFolder } from './test-support.js';

const BUCKET = 'stream-src';
const KEYS = S3RVER_KEYS;
const MANY = 40;
let s3: S3StandIn;
let endpoint: string;
let server: TestServer;
let owner: TestUser;

beforeAll(async () => {
  const objects: Record<string, string> = {
    'mixed/a.txt': 'alpha',
    'mixed/sub/b.md': '# beta',
    'mixed/x\\..\\escape.txt': 'a ".." segment (backslashes separate folders too)',
    'mixed/c.txt': 'gamma',
  };
  for (let i = 0; i < MANY; i++) objects[`many/file-${String(i).padStart(3, '0')}.txt`] = `object ${i}`;
  s3 = await startS3StandIn(BUCKET, objects);
  endpoint = s3.endpoint;
  server = await startTestServer();
  owner = await newUser(server, 'owner');
});

afterAll(async () => {
  await server?.close();
  await s3?.close();
});

async function newFolder(name: string): Promise<string> {
  const res = await call<{ id: string }>(server, '/v1/file/create', {
    token: owner.token,
    method: 'POST',
    body: { name, type: 'folder' },
  });
  return res.body.data!.id;
}

function post(body: Record<string, unknown>, signal?: AbortSignal) {
  return fetch(`${server.url}/v1/file/import_s3`, {
    method: 'POST',
    headers: { Authorization: owner.token, 'Content-Type': 'application/json' },
    body: JSON.stringify({ endpoint, bucket: BUCKET, ...KEYS, stream: true, ...body }),
    signal,
  });
}

type Envelope = { code: number; message: string; data: S3ImportEvent | true };

describe('file/import_s3 streamed', () => {
  it('reports each object as it is stored or skipped, then the summary and the terminator', async () => {
    const target = await newFolder('Streamed');
    const res = await post({ prefix: 'mixed/', parent_id: target });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const events = parseSse(await res.text()) as Envelope[];
    expect(events.every((e) => e.code === 0)).toBe(true);
    const data = events.map((e) => e.data);
    expect(data[0]).toEqual({ event: 'listed', total: 4 });
    const objects = data.filter(
      (d): d is Extract<S3ImportEvent, { event: 'object' }> => d !== true && d.event === 'object',
    );
    expect(objects.map((o) => `${o.done}/${o.total}`)).toEqual(['1/4', '2/4', '3/4', '4/4']);
    expect(
      objects
        .filter((o) => o.status === 'imported')
        .map((o) => o.file?.name)
        .sort(),
    ).toEqual(['a.txt', 'b.md', 'c.txt']);
    const skipped = objects.filter((o) => o.status === 'skipped');
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.key).toContain('escape.txt');
    expect(skipped[0]!.reason).toMatch(/must not contain empty, "\." or "\.\." segments/);
    const finished = data.at(-2);
    expect(finished).toMatchObject({ event: 'finished', skipped: [{ key: skipped[0]!.key }] });
    expect((finished as { files: unknown[] }).files).toHaveLength(3);
    expect(data.at(-1)).toBe(true);
    // what the events said is what the folder holds
    const top = await listFolder(server, owner.token, `parent_id=${target}`);
    expect(top.files.map((f) => f.name).sort()).toEqual(['a.txt', 'c.txt', 'sub']);
  });

  it('refuses before streaming with one JSON answer (wrong keys, unknown bucket), storing nothing', async () => {
    const wrong = await post({ access_key: 'nobody', secret_key: 'wrong' });
    expect(wrong.headers.get('content-type')).toMatch(/application\/json/);
    expect(await wrong.json()).toMatchObject({
      code: 102,
      message: expect.stringMatching(/S3 endpoint refused/),
    });
    const noBucket = await post({ bucket: 'no-such-bucket' });
    expect(await noBucket.json()).toMatchObject({
      code: 102,
      message: expect.stringMatching(/NoSuchBucket/),
    });
    const badFolder = await post({ parent_id: 'not-a-folder' });
    expect((await badFolder.json()) as { code: number }).toMatchObject({ code: 102 });
  });

  it('closing the stream cancels the import: what was stored stays, nothing more is stored', async () => {
    const target = await newFolder('Cancelled');
    const controller = new AbortController();
    const res = await post({ prefix: 'many/', parent_id: target }, controller.signal);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    let seen = 0;
    while (seen < 3) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
      seen = (parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2)) as Envelope[]).filter(
        (e) => e.data !== true && e.data.event === 'object',
      ).length;
    }
    expect(seen).toBeGreaterThanOrEqual(3);
    controller.abort();
    await reader.cancel().catch(() => undefined);

    // the import stops within an object or two; the count then stays put
    let count = -1;
    for (let i = 0; i < 50; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const now = (await listFolder(server, owner.token, `parent_id=${target}`)).total;
      if (now === count) break;
      count = now;
    }
    expect(count).toBeGreaterThanOrEqual(3);
    expect(count).toBeLessThan(MANY);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await listFolder(server, owner.token, `parent_id=${target}`)).total).toBe(count);
  });

  it('without `stream` the route still answers one JSON document', async () => {
    const target = await newFolder('Plain');
    const res = await post({ prefix: 'mixed/', parent_id: target, stream: false });
    const body = (await res.json()) as {
      code: number;
      data: { files: { name: string }[]; skipped: unknown[] };
    };
    expect(body.code).toBe(0);
    expect(body.data.files.map((f) => f.name).sort()).toEqual(['a.txt', 'b.md', 'c.txt']);
    expect(body.data.skipped).toHaveLength(1);
  });
});

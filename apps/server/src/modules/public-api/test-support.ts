/** Helpers of the public API tests (not a test file itself): API keys and `/api/v1` calls. */
import { expect } from 'vitest';
import { call, type TestServer, type TestUser } from '../../../test/harness.js';

export async function apiKeyOf(server: TestServer, user: TestUser): Promise<string> {
  const res = await call<{ token: string }>(server, '/v1/system/new_token', {
    method: 'POST',
    token: user.token,
  });
  expect(res.body.code, res.body.message).toBe(0);
  return res.body.data!.token;
}

export interface PublicAnswer<T = unknown> {
  code: number;
  message?: string;
  data?: T;
}

export async function api<T = unknown>(
  server: TestServer,
  key: string | null,
  method: string,
  route: string,
  body?: unknown,
): Promise<PublicAnswer<T>> {
  const res = await call<T>(server, route, {
    method,
    body,
    headers: key === null ? {} : { Authorization: key.includes(' ') ? key : `Bearer ${key}` },
  });
  return res.body as PublicAnswer<T>;
}

export async function uploadFiles(
  server: TestServer,
  key: string,
  datasetId: string,
  files: Array<{ name: string; data: string }>,
) {
  const form = new FormData();
  for (const f of files) form.append('file', new Blob([Buffer.from(f.data)]), f.name);
  const res = await fetch(`${server.url}/api/v1/datasets/${datasetId}/documents`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}` },
    body: form,
  });
  return (await res.json()) as PublicAnswer<Array<{ id: string; name: string; run: string }>>;
}

/** Polls the dataset's documents until none is queued or running. */
export async function waitDocs(server: TestServer, key: string, datasetId: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api<{ docs: Array<{ id: string; run: string; chunk_count: number }> }>(
      server,
      key,
      'GET',
      `/api/v1/datasets/${datasetId}/documents`,
    );
    const docs = res.data!.docs;
    if (docs.every((d) => d.run !== 'RUNNING')) return docs;
    if (Date.now() > deadline) throw new Error('documents still running');
    await new Promise((r) => setTimeout(r, 100));
  }
}

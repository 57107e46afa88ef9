/**
 * Helpers for the KB/document integration tests (not a test file itself): KB creation, multipart
 * uploads, parsing runs and waiting for documents to settle, team membership rows.
 */
import { expect } from 'vitest';
import { call, type TestServer } from '../../../test/harness.js';
import { newId } from '../../util/ids.js';
import { creationStamps } from '../../util/time.js';

export interface UploadFile {
  name: string;
  data: Buffer | string;
}

export async function createKb(
  server: TestServer,
  token: string,
  body: Record<string, unknown> = {},
): Promise<string> {
  const res = await call<{ kb_id: string }>(server, '/v1/kb/create', {
    token,
    body: { name: `kb-${Math.random().toString(36).slice(2, 8)}`, embd_id: '', ...body },
  });
  expect(res.body.message).toBe('success');
  return (res.body.data as { kb_id: string }).kb_id;
}

export async function upload(
  server: TestServer,
  token: string,
  fields: Record<string, string>,
  files: UploadFile[],
  route = '/v1/document/upload',
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files)
    form.append('file', new Blob([typeof f.data === 'string' ? Buffer.from(f.data) : f.data]), f.name);
  const res = await fetch(`${server.url}${route}`, {
    method: 'POST',
    headers: { Authorization: token },
    body: form,
  });
  const text = await res.text();
  let body: { code: number; message: string; data?: unknown };
  try {
    body = JSON.parse(text);
  } catch {
    body = { code: -1, message: text };
  }
  return { status: res.status, body };
}

export interface DocRow {
  id: string;
  name: string;
  run: string;
  progress: number;
  progress_msg: string;
  chunk_num: number;
  token_num: number;
  [k: string]: unknown;
}

export async function uploadDocs(
  server: TestServer,
  token: string,
  kbId: string,
  files: UploadFile[],
): Promise<DocRow[]> {
  const res = await upload(server, token, { kb_id: kbId }, files);
  expect(res.body.message).toBe('success');
  return res.body.data as DocRow[];
}

export async function listDocs(server: TestServer, token: string, kbId: string): Promise<DocRow[]> {
  const res = await call<{ docs: DocRow[] }>(server, `/v1/document/list?kb_id=${kbId}`, { token, body: {} });
  return (res.body.data as { docs: DocRow[] }).docs;
}

/** Polls the documents until none is queued or running (run "1"), then returns them by id. */
export async function waitSettled(
  server: TestServer,
  token: string,
  kbId: string,
  timeoutMs = 60_000,
): Promise<Map<string, DocRow>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const docs = await listDocs(server, token, kbId);
    if (docs.every((d) => d.run !== '1')) return new Map(docs.map((d) => [d.id, d]));
    if (Date.now() > deadline)
      throw new Error(
        `documents still running: ${docs
          .filter((d) => d.run === '1')
          .map((d) => `${d.name}: ${d.progress_msg}`)
          .join(' | ')}`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function runDocs(
  server: TestServer,
  token: string,
  docIds: string[],
  extra: Record<string, unknown> = {},
) {
  return call(server, '/v1/document/run', { token, body: { doc_ids: docIds, run: '1', ...extra } });
}

/** Makes `userId` a member of `tenantId`'s team with `role` (the team API belongs to another area). */
export async function joinTeam(
  server: TestServer,
  userId: string,
  tenantId: string,
  role = 'normal',
): Promise<void> {
  await server.ctx.db.kysely
    .insertInto('user_tenant')
    .values({
      id: newId(),
      user_id: userId,
      tenant_id: tenantId,
      role,
      invited_by: tenantId,
      status: '1',
      ...creationStamps(),
    })
    .execute();
}

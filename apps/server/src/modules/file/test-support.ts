/** Helpers for the file-manager integration tests (not a test file itself). */
import { expect } from 'vitest';
import { call, type TestServer } from '../../../test/harness.js';
import { upload, type UploadFile } from '../kb/test-support.js';

export interface FileEntry {
  id: string;
  parent_id: string;
  name: string;
  type: string;
  size: number;
  source_type: string;
  kbs_info: Array<{ kb_id: string; kb_name: string; document_id: string }>;
  has_child_folder?: boolean;
}

export async function rootOf(server: TestServer, token: string): Promise<string> {
  const res = await call<{ root_folder: { id: string } }>(server, '/v1/file/root_folder', { token });
  return res.body.data!.root_folder.id;
}

export async function listFolder(server: TestServer, token: string, query = '') {
  const res = await call<{ total: number; files: FileEntry[]; parent_folder: { id: string } }>(
    server,
    `/v1/file/list${query ? `?${query}` : ''}`,
    { token },
  );
  expect(res.body.code, res.body.message).toBe(0);
  return res.body.data!;
}

export async function uploadFiles(
  server: TestServer,
  token: string,
  files: UploadFile[],
  parentId?: string,
): Promise<FileEntry[]> {
  const res = await upload(server, token, parentId ? { parent_id: parentId } : {}, files, '/v1/file/upload');
  expect(res.body.code, res.body.message).toBe(0);
  return res.body.data as FileEntry[];
}

export async function fileBytes(server: TestServer, token: string, fileId: string) {
  const res = await fetch(`${server.url}/v1/file/get/${fileId}`, { headers: { Authorization: token } });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, DocRun, RetCode, type BodyInput, type FileRow } from '@lectern/shared';
import i18n from '../i18n';
import { docKeys, isParsing, POLL_MS } from './document';
import { buildUrl, networkFailure, unwrap, type ApiResult } from './request';
import { callRoute, streamRoute } from './route-call';
import type { SseEnvelope, StreamOutcome } from './sse';
import { currentAuthorization } from './storage';

/** Hooks of the file manager (API.md §12). */

export const FILE_PAGE_SIZE = 15;

export interface FileListParams {
  parentId?: string;
  page: number;
  pageSize: number;
  keywords: string;
}

export const fileKeys = {
  all: ['file'] as const,
  list: (p: FileListParams) => ['file', 'list', p] as const,
  folders: (parentId: string) => ['file', 'folders', parentId] as const,
  parents: (fileId: string) => ['file', 'parents', fileId] as const,
  root: ['file', 'root'] as const,
};

export function useFileList(params: FileListParams) {
  return useQuery({
    queryKey: fileKeys.list(params),
    queryFn: async () =>
      unwrap(
        await callRoute(contract.file.list, {
          query: {
            parent_id: params.parentId || undefined,
            page: params.page,
            page_size: params.pageSize,
            keywords: params.keywords || undefined,
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** The entries directly inside `parentId` by name (for the pickers), at most 1,000. */
export async function fetchChildren(parentId: string | undefined) {
  const data = unwrap(
    await callRoute(contract.file.list, {
      query: { parent_id: parentId, page: 1, page_size: 1000, orderby: 'name', desc: false },
    }),
  );
  return { parent: data.parent_folder, entries: data.files };
}

/** The folders from the root down to `fileId` (the breadcrumb). */
export function useParentFolders(fileId: string | undefined) {
  return useQuery({
    queryKey: fileKeys.parents(fileId ?? ''),
    enabled: !!fileId,
    queryFn: async () => {
      const data = unwrap(await callRoute(contract.file.allParentFolder, { query: { file_id: fileId! } }));
      return [...data.parent_folders].reverse();
    },
  });
}

function useFileMutation<I, T>(call: (input: I) => Promise<ApiResult<T>>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => {
      void client.invalidateQueries({ queryKey: fileKeys.all });
      void client.invalidateQueries({ queryKey: docKeys.all });
    },
  });
}

export function useCreateFolder() {
  return useFileMutation((input: { name: string; parentId?: string }) =>
    callRoute(contract.file.create, {
      body: { name: input.name, parent_id: input.parentId, type: 'folder' },
    }),
  );
}

export function useRenameFile() {
  return useFileMutation((input: { fileId: string; name: string }) =>
    callRoute(contract.file.rename, { body: { file_id: input.fileId, name: input.name } }),
  );
}

export function useRemoveFiles() {
  return useFileMutation((fileIds: string[]) => callRoute(contract.file.rm, { body: { file_ids: fileIds } }));
}

export function useMoveFiles() {
  return useFileMutation((input: { fileIds: string[]; destId: string }) =>
    callRoute(contract.file.mv, { body: { src_file_ids: input.fileIds, dest_file_id: input.destId } }),
  );
}

/**
 * Links files (folders: every file beneath) to knowledge bases, replacing their earlier links
 * (API.md §12.1). With `parse`, the documents created are then queued for parsing (`document/run`),
 * which is the parse-on-creation option. A refused run comes back as the answer.
 */
export function useLinkFiles() {
  return useFileMutation(async (input: { fileIds: string[]; kbIds: string[]; parse: boolean }) => {
    const linked = await callRoute(contract.file.convert, {
      body: { file_ids: input.fileIds, kb_ids: input.kbIds },
    });
    const docIds = (linked.data ?? []).map((l) => l.document_id);
    if (linked.code !== RetCode.SUCCESS || !input.parse || docIds.length === 0) return linked;
    const run = await callRoute(contract.document.run, { body: { doc_ids: docIds, run: DocRun.RUNNING } });
    return run.code === RetCode.SUCCESS ? linked : { ...run, data: linked.data };
  });
}

/**
 * An S3 import with its progress: `file/import_s3` with `stream: true` (events `listed`, `object`,
 * `finished`). Aborting `signal` closes the stream, which stops the import after the current object.
 */
export function streamImportS3(
  body: Omit<BodyInput<typeof contract.file.importS3>, 'stream'>,
  onEvent: (event: SseEnvelope) => void,
  signal: AbortSignal,
): Promise<StreamOutcome> {
  return streamRoute(contract.file.importS3, { ...body, stream: true }, { signal, onEvent });
}

/** The bytes of a file (`GET /v1/file/get/<id>`). */
export function fetchFileBytes(fileId: string) {
  return callRoute(contract.file.get, { params: { file_id: fileId } }, { responseType: 'blob' });
}

/** A DOCX file as a sanitized HTML page (`GET /v1/file/preview/<id>`, docs/api-additions.md). */
export function fetchFilePreview(fileId: string) {
  return callRoute(contract.file.preview, { params: { file_id: fileId } }, { responseType: 'blob' });
}

/** Lets the file lists be read again (after uploads made outside a mutation hook). */
export function useRefreshFiles() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: fileKeys.all });
}

function parseEnvelope(text: string): { code?: unknown; message?: unknown; data?: unknown } | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * Uploads one file into a folder with its relative path as the part's file name (`a/b/c.txt` creates
 * the folders). XMLHttpRequest rather than fetch because only it reports upload progress; the answer
 * is the same envelope every request gets.
 */
export function uploadFileWithProgress(
  file: Blob,
  relativePath: string,
  parentId: string | undefined,
  onProgress: (fraction: number) => void,
): Promise<ApiResult<FileRow[]>> {
  const form = new FormData();
  if (parentId) form.append('parent_id', parentId);
  form.append('file', file, relativePath);
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl(contract.file.upload.path));
    const auth = currentAuthorization();
    if (auth) xhr.setRequestHeader('Authorization', auth);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      const body = parseEnvelope(xhr.responseText);
      const code = typeof body?.code === 'number' ? body.code : xhr.status || RetCode.EXCEPTION_ERROR;
      const message =
        typeof body?.message === 'string' ? body.message : xhr.statusText || i18n.t('message.requestError');
      resolve({
        code,
        message,
        data: code === RetCode.SUCCESS ? (body?.data as FileRow[]) : null,
        status: xhr.status,
        headers: null,
      });
    };
    xhr.onerror = () => resolve(networkFailure());
    xhr.ontimeout = () => resolve(networkFailure());
    xhr.send(form);
  });
}

/** The manager's files linked to a knowledge base; re-read every 2 s while one of their documents parses. */
export function useKbFiles(params: { kbId: string; page: number; pageSize: number; keywords: string }) {
  return useQuery({
    queryKey: ['file', 'kb', params] as const,
    queryFn: async () =>
      unwrap(
        await callRoute(contract.file.kbFiles, {
          query: {
            kb_id: params.kbId,
            page: params.page,
            page_size: params.pageSize,
            keywords: params.keywords || undefined,
          },
        }),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.files.some((f) => isParsing(f)) ? POLL_MS : false),
  });
}

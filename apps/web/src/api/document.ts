import { useEffect, useRef } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, DocRun, type DocumentInfo, type ParserConfig, type QueryInput } from '@lectern/shared';
import { kbKeys } from './kb';
import { unwrap, type ApiResult } from './request';
import { callRoute } from './route-call';

/** Hooks of the document area (API.md §6). */

export interface DocListParams {
  kbId: string;
  page: number;
  pageSize: number;
  keywords: string;
  runStatus: DocRun[];
}

export const docKeys = {
  all: ['document'] as const,
  kb: (kbId: string) => ['document', 'list', kbId] as const,
  list: (p: DocListParams) => ['document', 'list', p.kbId, p] as const,
};

/** How often the list is re-read while a document is parsing. */
export const POLL_MS = 2_000;

export function isParsing(doc: Pick<DocumentInfo, 'run'>): boolean {
  return doc.run === DocRun.RUNNING || doc.run === DocRun.SCHEDULE;
}

/** Paging, ordering and keywords travel in the query string; filters in the body (API.md §6). */
export function docListQuery(p: Omit<DocListParams, 'runStatus'>): QueryInput<typeof contract.document.list> {
  return {
    kb_id: p.kbId,
    page: p.page,
    page_size: p.pageSize,
    keywords: p.keywords || undefined,
  };
}

/**
 * A KB's documents; re-read every 2 s while any of them is parsing. When parsing ends, the KB's
 * counters (detail, list cards) are read again too.
 */
export function useDocumentList(params: DocListParams) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: docKeys.list(params),
    queryFn: async () =>
      unwrap(
        await callRoute(contract.document.list, {
          query: docListQuery(params),
          body: params.runStatus.length > 0 ? { run_status: params.runStatus } : {},
        }),
      ),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.docs.some(isParsing) ? POLL_MS : false),
  });
  const parsing = query.data?.docs.some(isParsing) ?? false;
  const wasParsing = useRef(false);
  useEffect(() => {
    if (wasParsing.current && !parsing) {
      void client.invalidateQueries({ queryKey: kbKeys.detail(params.kbId) });
      void client.invalidateQueries({ queryKey: ['kb', 'list'] });
    }
    wasParsing.current = parsing;
  }, [parsing, client, params.kbId]);
  return query;
}

/** After any change: the KB's documents and its counters (detail, list cards). */
function useRefresh(kbId: string) {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: docKeys.kb(kbId) });
    void client.invalidateQueries({ queryKey: kbKeys.detail(kbId) });
    void client.invalidateQueries({ queryKey: ['kb', 'list'] });
  };
}

function useDocMutation<I, T>(kbId: string, call: (input: I) => Promise<ApiResult<T>>) {
  const refresh = useRefresh(kbId);
  return useMutation({ mutationFn: call, onSettled: refresh });
}

/** A document's original file (`GET /v1/document/get/<id>`); a refusal arrives as an envelope. */
export function fetchDocumentFile(docId: string) {
  return callRoute(contract.document.file, { params: { doc_id: docId } }, { responseType: 'blob' });
}

/** A DOCX document as a sanitized HTML page (`GET /v1/document/preview/<id>`, docs/api-additions.md). */
export function fetchDocumentPreview(docId: string) {
  return callRoute(contract.document.preview, { params: { doc_id: docId } }, { responseType: 'blob' });
}

export function useUploadDocuments(kbId: string) {
  return useDocMutation(kbId, (files: File[]) => {
    const form = new FormData();
    form.append('kb_id', kbId);
    for (const f of files) form.append('file', f, f.name);
    return callRoute(contract.document.upload, { body: form });
  });
}

export function useChangeDocStatus(kbId: string) {
  return useDocMutation(kbId, (input: { docIds: string[]; status: '0' | '1' }) =>
    callRoute(contract.document.changeStatus, { body: { doc_ids: input.docIds, status: input.status } }),
  );
}

export interface RunInput {
  docIds: string[];
  run: typeof DocRun.RUNNING | typeof DocRun.CANCEL;
  /** Re-parse: clear the existing chunks first. */
  delete?: boolean;
}

export function useRunDocuments(kbId: string) {
  return useDocMutation(kbId, (input: RunInput) =>
    callRoute(contract.document.run, {
      body: {
        doc_ids: input.docIds,
        run: input.run,
        ...(input.delete !== undefined ? { delete: input.delete } : {}),
      },
    }),
  );
}

export function useRenameDocument(kbId: string) {
  return useDocMutation(kbId, (input: { docId: string; name: string }) =>
    callRoute(contract.document.rename, { body: { doc_id: input.docId, name: input.name } }),
  );
}

export function useChangeParser(kbId: string) {
  return useDocMutation(kbId, (input: { docId: string; parserId: string; parserConfig: ParserConfig }) =>
    callRoute(contract.document.changeParser, {
      body: { doc_id: input.docId, parser_id: input.parserId, parser_config: input.parserConfig },
    }),
  );
}

/** `meta` is the JSON text of a flat object (API.md §6 set_meta). */
export function useSetMeta(kbId: string) {
  return useDocMutation(kbId, (input: { docId: string; meta: string }) =>
    callRoute(contract.document.setMeta, { body: { doc_id: input.docId, meta: input.meta } }),
  );
}

export function useRemoveDocuments(kbId: string) {
  return useDocMutation(kbId, (docIds: string[]) =>
    callRoute(contract.document.rm, { body: { doc_id: docIds } }),
  );
}

/**
 * The metadata summaries (`{key: [[value, count], …]}`) of several knowledge bases, one per KB in
 * order; a KB whose summary cannot be read (removed, not shared) gives `{}`. For key suggestions.
 */
export function useMetadataSummaries(kbIds: string[]) {
  const ids = [...new Set(kbIds)].sort();
  return useQuery({
    queryKey: ['document', 'metadata-summary', ids],
    queryFn: async () =>
      Promise.all(
        ids.map(async (kbId) => {
          const r = await callRoute(contract.document.metadataSummary, { body: { kb_id: kbId } });
          return r.code === 0 && r.data ? r.data.summary : {};
        }),
      ),
    enabled: ids.length > 0,
    staleTime: 30_000,
  });
}

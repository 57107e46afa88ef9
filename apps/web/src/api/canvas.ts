import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, type BodyInput, type CanvasDsl, type DataOf } from '@lectern/shared';
import { unwrap } from './request';
import { callRoute, streamRoute } from './route-call';
import type { StreamOutcome } from './sse';

/** Calls of the agent area (API.md §13), typed from the route contract. */

export const canvasKeys = {
  all: ['canvas'] as const,
  list: (keywords: string) => ['canvas', 'list', keywords] as const,
  templates: ['canvas', 'templates'] as const,
  detail: (id: string) => ['canvas', 'detail', id] as const,
  versions: (id: string) => ['canvas', 'versions', id] as const,
  version: (id: string) => ['canvas', 'version', id] as const,
};

export function useCanvasList(keywords = '') {
  return useQuery({
    queryKey: canvasKeys.list(keywords),
    queryFn: async () =>
      unwrap(
        await callRoute(contract.canvas.list, {
          query: { keywords: keywords || undefined, canvas_category: 'agent_canvas', orderby: 'update_time' },
        }),
      ),
  });
}

export function useCanvasTemplates() {
  return useQuery({
    queryKey: canvasKeys.templates,
    queryFn: async () => unwrap(await callRoute(contract.canvas.templates, {})),
    staleTime: 5 * 60_000,
  });
}

export function useCanvas(id: string | undefined) {
  return useQuery({
    queryKey: canvasKeys.detail(id ?? ''),
    queryFn: async () => unwrap(await callRoute(contract.canvas.get, { params: { canvas_id: id ?? '' } })),
    enabled: Boolean(id),
    // The editor owns the canvas once loaded: a refetch must not replace what is being edited.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

export type CanvasSetBody = BodyInput<typeof contract.canvas.set>;

/** Saves a canvas (autosave); every save adds a version. A refusal is the caller's to show. */
export function saveCanvas(body: CanvasSetBody) {
  return callRoute(contract.canvas.set, { body });
}

export function useCreateCanvas() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CanvasSetBody) => callRoute(contract.canvas.set, { body }),
    onSuccess: (result) => {
      if (result.code === 0) void client.invalidateQueries({ queryKey: canvasKeys.all });
    },
  });
}

export function useRemoveCanvases() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => callRoute(contract.canvas.rm, { body: { canvas_ids: ids } }),
    onSuccess: (result) => {
      if (result.code === 0) void client.invalidateQueries({ queryKey: canvasKeys.all });
    },
  });
}

export function useCanvasSetting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyInput<typeof contract.canvas.setting>) =>
      callRoute(contract.canvas.setting, { body }),
    onSuccess: (result) => {
      if (result.code === 0) void client.invalidateQueries({ queryKey: canvasKeys.all });
    },
  });
}

export function useCanvasVersions(id: string, enabled: boolean) {
  return useQuery({
    queryKey: canvasKeys.versions(id),
    queryFn: async () =>
      unwrap(await callRoute(contract.canvas.getlistversion, { params: { canvas_id: id } })),
    enabled,
  });
}

export function useCanvasVersion(versionId: string | null) {
  return useQuery({
    queryKey: canvasKeys.version(versionId ?? ''),
    queryFn: async () =>
      unwrap(await callRoute(contract.canvas.getversion, { params: { version_id: versionId ?? '' } })),
    enabled: Boolean(versionId),
  });
}

export function resetCanvas(id: string) {
  return callRoute(contract.canvas.reset, { body: { id } });
}

export function cancelRun(taskId: string) {
  return callRoute(contract.canvas.cancel, { params: { task_id: taskId } });
}

export function debugComponent(body: BodyInput<typeof contract.canvas.debug>) {
  return callRoute(contract.canvas.debug, { body });
}

export function inputForm(id: string, componentId: string) {
  return callRoute(contract.canvas.inputForm, { query: { id, component_id: componentId } });
}

export function runTrace(canvasId: string, messageId: string) {
  return callRoute(contract.canvas.trace, { query: { canvas_id: canvasId, message_id: messageId } });
}

export function uploadRunFile(canvasId: string, file: File) {
  const form = new FormData();
  form.append('file', file);
  return callRoute(contract.canvas.upload, { params: { canvas_id: canvasId }, body: form });
}

/** Streams one run of the canvas's own conversation (API.md §13.2); events arrive bare. */
export function streamCompletion(
  body: BodyInput<typeof contract.canvas.completion>,
  onEvent: (event: unknown) => void,
  signal: AbortSignal,
): Promise<StreamOutcome> {
  return streamRoute(contract.canvas.completion, body, { signal, onEvent });
}

export type { CanvasDsl };

export type CanvasDetail = DataOf<typeof contract.canvas.get>;

/** The canvas as saved (after a run, to pick up the history the server wrote). */
export function fetchCanvas(id: string) {
  return callRoute(contract.canvas.get, { params: { canvas_id: id } });
}

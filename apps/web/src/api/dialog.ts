import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, type DialogSetBody } from '@lectern/shared';
import { unwrap } from './request';
import { callRoute } from './route-call';

/** Hooks of the chat-assistant area (API.md §8). */

export const dialogKeys = {
  all: ['dialog'] as const,
  list: ['dialog', 'list'] as const,
  detail: (id: string) => ['dialog', 'detail', id] as const,
};

export function useDialogList() {
  return useQuery({
    queryKey: dialogKeys.list,
    queryFn: async () => unwrap(await callRoute(contract.dialog.list, {})),
  });
}

export function useDialog(dialogId: string | undefined) {
  return useQuery({
    queryKey: dialogKeys.detail(dialogId ?? ''),
    queryFn: async () =>
      unwrap(await callRoute(contract.dialog.get, { query: { dialog_id: dialogId ?? '' } })),
    enabled: Boolean(dialogId),
  });
}

/** Creates (no `dialog_id`) or updates an assistant. Prompt variable keys are sent as typed. */
export function useSetDialog() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ idempotencyKey, ...body }: DialogSetBody & { idempotencyKey?: string }) =>
      callRoute(contract.dialog.set, { body }, { idempotencyKey }),
    onSuccess: (result) => {
      if (result.code === 0) void client.invalidateQueries({ queryKey: dialogKeys.all });
    },
  });
}

export function useRemoveDialogs() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (dialogIds: string[]) => callRoute(contract.dialog.rm, { body: { dialog_ids: dialogIds } }),
    onSuccess: (result) => {
      if (result.code === 0) void client.invalidateQueries({ queryKey: dialogKeys.all });
    },
  });
}

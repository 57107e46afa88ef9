import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, type BodyInput } from '@lectern/shared';
import { callRoute } from './route-call';

/**
 * Hooks of the tracing keys (API.md §14). The query keeps the whole answer: code 0 without data
 * means "no keys yet", and a refused check (102/105) is shown on the page, not thrown.
 */

export const tracingKeys = { keys: ['langfuse', 'api_key'] as const };

export function useTracingKeys() {
  return useQuery({
    queryKey: tracingKeys.keys,
    queryFn: () => callRoute(contract.langfuse.getApiKey, {}),
  });
}

export function useSaveTracingKeys() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyInput<typeof contract.langfuse.setApiKey>) =>
      callRoute(contract.langfuse.setApiKey, { body }),
    onSuccess: (result) => {
      if (result.code === 0) void client.invalidateQueries({ queryKey: tracingKeys.keys });
    },
  });
}

export function useDeleteTracingKeys() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => callRoute(contract.langfuse.deleteApiKey, {}),
    onSuccess: (result) => {
      if (result.code === 0) void client.invalidateQueries({ queryKey: tracingKeys.keys });
    },
  });
}

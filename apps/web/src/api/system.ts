import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, type DataOf } from '@lectern/shared';
import { unwrap } from './request';
import { callRoute } from './route-call';

/** Hooks of the system area (API.md §11). */

export const systemKeys = {
  config: ['system', 'config'] as const,
  tokens: ['system', 'tokens'] as const,
};

export type SystemConfig = DataOf<typeof contract.system.config>;

export function useSystemConfig() {
  return useQuery({
    queryKey: systemKeys.config,
    queryFn: async () => unwrap(await callRoute(contract.system.config, {}, { skipToken: true })),
    staleTime: 5 * 60_000,
  });
}

export function useApiTokens() {
  return useQuery({
    queryKey: systemKeys.tokens,
    queryFn: async () => unwrap(await callRoute(contract.system.tokenList, {})),
  });
}

export function useCreateApiToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (idempotencyKey?: string) => callRoute(contract.system.newToken, {}, { idempotencyKey }),
    onSuccess: (result) => {
      if (result.code === 0) void client.invalidateQueries({ queryKey: systemKeys.tokens });
    },
  });
}

export function useDeleteApiToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => callRoute(contract.system.removeToken, { params: { token } }),
    onSuccess: (result) => {
      if (result.code === 0) void client.invalidateQueries({ queryKey: systemKeys.tokens });
    },
  });
}

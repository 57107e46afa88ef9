import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiTokenRow } from '@lectern/shared';
import { api, unwrap } from './request';

/** Hooks of the system area (API.md §11). */

export const systemKeys = {
  config: ['system', 'config'] as const,
  tokens: ['system', 'tokens'] as const,
};

export interface SystemConfig {
  registerEnabled: number;
}

export function useSystemConfig() {
  return useQuery({
    queryKey: systemKeys.config,
    queryFn: async () => unwrap(await api.get<SystemConfig>('/system/config', { skipToken: true })),
    staleTime: 5 * 60_000,
  });
}

export function useApiTokens() {
  return useQuery({
    queryKey: systemKeys.tokens,
    queryFn: async () => unwrap(await api.get<ApiTokenRow[]>('/system/token_list')),
  });
}

export function useCreateApiToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<ApiTokenRow>('/system/new_token'),
    onSuccess: (result) => {
      if (result.code === 0) void client.invalidateQueries({ queryKey: systemKeys.tokens });
    },
  });
}

export function useDeleteApiToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api.delete<boolean>('/system/token', { segment: token }),
    onSuccess: (result) => {
      if (result.code === 0) void client.invalidateQueries({ queryKey: systemKeys.tokens });
    },
  });
}

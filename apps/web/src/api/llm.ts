import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FactoryInfo, LlmListItem, MyLlms, TenantInfo, VerifyResult } from '@lectern/shared';
import { api, unwrap, type ApiResult } from './request';

/**
 * Hooks of the model-provider area (API.md §4), plus the tenant's system default models
 * (`/user/tenant_info`, `/user/set_tenant_info`, API.md §2) that the same settings page edits.
 */

export const llmKeys = {
  all: ['llm'] as const,
  factories: ['llm', 'factories'] as const,
  myLlms: ['llm', 'my_llms'] as const,
  list: (modelType: string) => ['llm', 'list', modelType] as const,
  tenantInfo: ['user', 'tenant_info'] as const,
};

/** A body of set_api_key / add_llm: fixed keys plus the provider's own credential fields. */
export type ProviderBody = Record<string, unknown> & { llm_factory: string };

export interface SetTenantInfoInput {
  tenant_id: string;
  llm_id: string;
  embd_id: string;
  img2txt_id: string;
  asr_id: string;
  rerank_id: string;
  tts_id: string;
}

/** The provider catalogue, in the server's order (rank, then name). */
export function useFactories() {
  return useQuery({
    queryKey: llmKeys.factories,
    queryFn: async () => unwrap(await api.get<FactoryInfo[]>('/llm/factories')),
    staleTime: 10 * 60_000,
  });
}

/** The tenant's configured providers and models, with base url and max tokens. */
export function useMyLlms() {
  return useQuery({
    queryKey: llmKeys.myLlms,
    queryFn: async () => unwrap(await api.get<MyLlms>('/llm/my_llms', { data: { include_details: true } })),
  });
}

/** Models of one type the tenant can use, by factory. */
export function useModelList(modelType: string, enabled = true) {
  return useQuery({
    queryKey: llmKeys.list(modelType),
    queryFn: async () =>
      unwrap(await api.get<Record<string, LlmListItem[]>>('/llm/list', { data: { model_type: modelType } })),
    enabled,
  });
}

export function useTenantInfo(enabled = true) {
  return useQuery({
    queryKey: llmKeys.tenantInfo,
    queryFn: async () => unwrap(await api.get<TenantInfo>('/user/tenant_info')),
    enabled,
  });
}

/** A mutation whose success refreshes every model query (my_llms, list) and, if asked, tenant info. */
function useLlmMutation<I, O>(fn: (input: I) => Promise<ApiResult<O>>, alsoTenant = false) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (result) => {
      if (result.code !== 0) return;
      void client.invalidateQueries({ queryKey: llmKeys.all });
      if (alsoTenant) void client.invalidateQueries({ queryKey: llmKeys.tenantInfo });
    },
  });
}

/** Credential field names are sent exactly as the catalogue spells them. */
const keepAll = (body: Record<string, unknown>) => ({ keepKeys: Object.keys(body) });

export function useSetApiKey() {
  return useLlmMutation((body: ProviderBody) =>
    api.post<true | VerifyResult>('/llm/set_api_key', body, keepAll(body)),
  );
}

export function useAddLlm() {
  return useLlmMutation((body: ProviderBody) =>
    api.post<true | VerifyResult>('/llm/add_llm', body, keepAll(body)),
  );
}

/**
 * Probes a key or a model without storing anything (`verify: true`). Not a cached mutation of the
 * model lists: nothing changes on the server.
 */
export function useVerifyProvider() {
  return useMutation({
    mutationFn: ({ route, body }: { route: 'set_api_key' | 'add_llm'; body: ProviderBody }) =>
      api.post<VerifyResult>(`/llm/${route}`, { ...body, verify: true }, keepAll(body)),
  });
}

export function useDeleteLlm() {
  return useLlmMutation((ref: { llm_factory: string; llm_name: string }) =>
    api.post<boolean>('/llm/delete_llm', { ...ref }),
  );
}

export function useEnableLlm() {
  return useLlmMutation((ref: { llm_factory: string; llm_name: string; status: '0' | '1' }) =>
    api.post<boolean>('/llm/enable_llm', { ...ref }),
  );
}

export function useDeleteFactory() {
  return useLlmMutation((llm_factory: string) => api.post<boolean>('/llm/delete_factory', { llm_factory }));
}

export function useSetTenantInfo() {
  return useLlmMutation(
    (input: SetTenantInfoInput) => api.post<boolean>('/user/set_tenant_info', { ...input }),
    true,
  );
}

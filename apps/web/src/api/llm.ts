import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, type BodyInput, type VerifyResult } from '@lectern/shared';
import { unwrap, type ApiResult } from './request';
import { callRoute } from './route-call';

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

/**
 * A body of set_api_key / add_llm: the contract's keys plus the provider's own credential fields,
 * whose names come from the catalogue at run time (`credential_fields` of `/llm/factories`).
 */
export type ProviderBody = Record<string, unknown> & { llm_factory: string };
type SetApiKeyBody = BodyInput<typeof contract.llm.setApiKey>;
type AddLlmBody = BodyInput<typeof contract.llm.addLlm>;

export type SetTenantInfoInput = BodyInput<typeof contract.user.setTenantInfo>;

/** Sends a provider form as set_api_key (the server checks the credential fields it names). */
function setApiKey(body: ProviderBody) {
  return callRoute(contract.llm.setApiKey, { body: body as SetApiKeyBody });
}

/** Sends a provider form as add_llm (the server checks the credential fields it names). */
function addLlm(body: ProviderBody) {
  return callRoute(contract.llm.addLlm, { body: body as AddLlmBody });
}

/** The provider catalogue, in the server's order (rank, then name). */
export function useFactories() {
  return useQuery({
    queryKey: llmKeys.factories,
    queryFn: async () => unwrap(await callRoute(contract.llm.factories, {})),
    staleTime: 10 * 60_000,
  });
}

/** The tenant's configured providers and models, with base url and max tokens. */
export function useMyLlms() {
  return useQuery({
    queryKey: llmKeys.myLlms,
    queryFn: async () => unwrap(await callRoute(contract.llm.myLlms, { query: { include_details: 'true' } })),
  });
}

/** Models of one type the tenant can use, by factory. */
export function useModelList(modelType: string, enabled = true) {
  return useQuery({
    queryKey: llmKeys.list(modelType),
    queryFn: async () => unwrap(await callRoute(contract.llm.list, { query: { model_type: modelType } })),
    enabled,
  });
}

export function useTenantInfo(enabled = true) {
  return useQuery({
    queryKey: llmKeys.tenantInfo,
    queryFn: async () => unwrap(await callRoute(contract.user.tenantInfo, {})),
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

export function useSetApiKey() {
  return useLlmMutation(setApiKey);
}

export function useAddLlm() {
  return useLlmMutation(addLlm);
}

/**
 * Probes a key or a model without storing anything (`verify: true`). Not a cached mutation of the
 * model lists: nothing changes on the server.
 */
export function useVerifyProvider() {
  return useMutation({
    mutationFn: async ({
      route,
      body,
    }: {
      route: 'set_api_key' | 'add_llm';
      body: ProviderBody;
    }): Promise<ApiResult<VerifyResult>> => {
      const probe = { ...body, verify: true };
      const result = await (route === 'set_api_key' ? setApiKey(probe) : addLlm(probe));
      // With `verify: true` a success always carries the probe's result (API.md §4).
      return { ...result, data: result.data === true ? null : result.data };
    },
  });
}

export function useDeleteLlm() {
  return useLlmMutation((ref: BodyInput<typeof contract.llm.deleteLlm>) =>
    callRoute(contract.llm.deleteLlm, { body: ref }),
  );
}

export function useEnableLlm() {
  return useLlmMutation((ref: BodyInput<typeof contract.llm.enableLlm>) =>
    callRoute(contract.llm.enableLlm, { body: ref }),
  );
}

export function useDeleteFactory() {
  return useLlmMutation((llm_factory: string) =>
    callRoute(contract.llm.deleteFactory, { body: { llm_factory } }),
  );
}

export function useSetTenantInfo() {
  return useLlmMutation(
    (input: SetTenantInfoInput) => callRoute(contract.user.setTenantInfo, { body: input }),
    true,
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, type BodyInput, type UserInfo } from '@lectern/shared';
import { unwrap, type ApiResult } from './request';
import { callRoute } from './route-call';
import { clearSession, getStoredUserInfo, hasCredential, storeAuthorization, storeUserInfo } from './storage';

/** Hooks of the user area (API.md §2). */

export const userKeys = {
  info: ['user', 'info'] as const,
};

export type LoginInput = BodyInput<typeof contract.user.login>;
export type RegisterInput = BodyInput<typeof contract.user.register>;
export type SettingInput = BodyInput<typeof contract.user.setting>;

export async function fetchUserInfo(): Promise<UserInfo> {
  const user = unwrap(await callRoute(contract.user.info, {}));
  storeUserInfo(user);
  return user;
}

/** The signed-in user, cached; starts from the stored copy so the header renders at once. */
export function useUserInfo() {
  return useQuery({
    queryKey: userKeys.info,
    queryFn: fetchUserInfo,
    enabled: hasCredential(),
    placeholderData: () => getStoredUserInfo() ?? undefined,
    staleTime: 5 * 60_000,
  });
}

/**
 * Keeps a successful sign-in: the Authorization header value (under `Authorization` and `Token`)
 * and the user object.
 */
export function keepSession(result: ApiResult<UserInfo>): boolean {
  const token = result.headers?.get('Authorization');
  if (result.code !== 0 || !token || !result.data) return false;
  storeAuthorization(token);
  storeUserInfo(result.data);
  return true;
}

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) => callRoute(contract.user.login, { body: input }, { skipToken: true }),
    onSuccess: (result) => {
      if (keepSession(result)) client.setQueryData(userKeys.info, result.data);
    },
  });
}

/** Registers; the answer carries a session (API.md §2), kept like a sign-in's: sign-up signs in. */
export function useRegister() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: RegisterInput) =>
      callRoute(contract.user.register, { body: input }, { skipToken: true }),
    onSuccess: (result) => {
      if (keepSession(result)) client.setQueryData(userKeys.info, result.data);
    },
  });
}

/** Signs out on the server (best effort) and in the browser. */
export async function logout(): Promise<void> {
  await callRoute(contract.user.logout, {});
  clearSession();
}

export function useSaveSetting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: SettingInput) => callRoute(contract.user.setting, { body: input }),
    onSuccess: (result, input) => {
      // A new password ends the session, so there is no account to refetch (it would answer 401).
      if (result.code === 0 && input.new_password === undefined) {
        void client.invalidateQueries({ queryKey: userKeys.info });
      }
    },
  });
}

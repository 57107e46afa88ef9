import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract } from '@lectern/shared';
import { unwrap } from './request';
import { callRoute } from './route-call';

/** Hooks of the team area (API.md §3). A team's id is its owner's user id. */

export const tenantKeys = {
  all: ['tenant'] as const,
  members: (tenantId: string) => ['tenant', 'members', tenantId] as const,
  joined: ['tenant', 'joined'] as const,
};

// Memberships change by other people's hands (an invitee answers, a member leaves, an invitation
// arrives): the team lists are re-read whenever Team settings open, never served from the cache, and
// while they are open: every TEAM_POLL_MS as long as the window is visible, and when it regains focus.

/** How often open Team settings re-read the team lists (only while the window is visible). */
export const TEAM_POLL_MS = 5_000;

const liveTeamList = {
  staleTime: 0,
  refetchInterval: TEAM_POLL_MS,
  refetchIntervalInBackground: false,
  refetchOnWindowFocus: 'always',
} as const;

export function useTeamMembers(tenantId: string | undefined) {
  return useQuery({
    queryKey: tenantKeys.members(tenantId ?? ''),
    ...liveTeamList,
    enabled: !!tenantId,
    queryFn: async () =>
      unwrap(await callRoute(contract.tenant.members, { params: { tenant_id: tenantId ?? '' } })),
  });
}

export function useJoinedTeams() {
  return useQuery({
    queryKey: tenantKeys.joined,
    ...liveTeamList,
    queryFn: async () => unwrap(await callRoute(contract.tenant.list, {})),
  });
}

/** Any team change: memberships, and what is shared with the caller (KB and agent lists), are re-read. */
function useTeamMutation<A>(run: (arg: A) => ReturnType<typeof callRoute>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (result) => {
      if (result.code !== 0) return;
      void client.invalidateQueries({ queryKey: tenantKeys.all });
      void client.invalidateQueries({ queryKey: ['kb'] });
      void client.invalidateQueries({ queryKey: ['canvas'] });
    },
  });
}

export function useInvite(tenantId: string) {
  return useTeamMutation((email: string) =>
    callRoute(contract.tenant.invite, { params: { tenant_id: tenantId }, body: { email } }),
  );
}

/** The owner removes a member, or the caller leaves a team / refuses an invitation (own user id). */
export function useRemoveMember() {
  return useTeamMutation((arg: { tenantId: string; userId: string }) =>
    callRoute(contract.tenant.remove, { params: { tenant_id: arg.tenantId, user_id: arg.userId } }),
  );
}

export function useAgree() {
  return useTeamMutation((tenantId: string) =>
    callRoute(contract.tenant.agree, { params: { tenant_id: tenantId } }),
  );
}

/**
 * Outbound requests made on a user's behalf (web crawl, URL documents, web search, model base URLs,
 * later agent tools) go through here and nowhere else. See policy.ts for what is refused and
 * request.ts for how the connection is pinned, redirects re-checked and answers capped.
 */
import { createPolicy, parseAllowList, type OutboundPolicy, type Resolver } from './policy.js';

export { OutboundError, isOutboundError, type OutboundErrorKind } from './errors.js';
export {
  checkHost,
  createPolicy,
  parseAllowList,
  systemResolver,
  type AllowList,
  type CheckedTarget,
  type OutboundPolicy,
  type ResolvedAddress,
  type Resolver,
} from './policy.js';
export { outboundRequest, type OutboundRequestInit, type OutboundResponse } from './request.js';
export { fetchBytes, guardedFetch, safeFetch, type FetchedBytes, type SafeFetchInit } from './fetch.js';

/** The part of the server config the guard reads (LECTERN_SSRF_ALLOW, ALLOW_PRIVATE_FETCH). */
export interface OutboundSettings {
  ssrfAllow: string;
  allowPrivateFetch: boolean;
}

const policies = new WeakMap<OutboundSettings, OutboundPolicy>();

/**
 * The policy of one loaded config, built once. The composition root calls it at start-up, so a
 * malformed LECTERN_SSRF_ALLOW stops the server with the offending entry named.
 */
export function outboundPolicyOf(settings: OutboundSettings): OutboundPolicy {
  let policy = policies.get(settings);
  if (!policy) {
    let allow;
    try {
      allow = parseAllowList(settings.ssrfAllow);
    } catch (err) {
      throw new Error(`Invalid configuration:\n  LECTERN_SSRF_ALLOW: ${(err as Error).message}`);
    }
    policy = createPolicy({ ssrfAllow: allow, allowAllPrivate: settings.allowPrivateFetch });
    policies.set(settings, policy);
  }
  return policy;
}

/**
 * Makes the policy of `settings` resolve names with `resolve` instead of the system resolver: tests use
 * it to answer with chosen addresses (a public name that resolves to a private one, a rebinding
 * resolver) without touching real DNS.
 */
export function setOutboundResolver(settings: OutboundSettings, resolve: Resolver): void {
  policies.set(settings, { ...outboundPolicyOf(settings), resolve });
}

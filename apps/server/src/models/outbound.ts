import type { Config } from '../config.js';
import { outboundPolicyOf, safeFetch, type OutboundPolicy, type SafeFetchInit } from '../net/index.js';

/** Largest answer a model call may bring back (a batch of 256 large embeddings is ~20 MB of JSON). */
const MODEL_MAX_BYTES = 256 * 1024 * 1024;

/**
 * The fetch of every model adapter: requests to a tenant's base URL go through the outbound guard, so
 * a private or local address is refused unless LECTERN_SSRF_ALLOW allows it. The time limit is the
 * caller's (MODEL_TIMEOUT_MS, re-armed per streamed chunk), carried by the request's signal.
 */
export function modelFetch(policyOf: () => OutboundPolicy): typeof fetch {
  return ((input: string | URL | Request, init: RequestInit = {}) =>
    safeFetch(policyOf(), input, {
      ...(init as SafeFetchInit),
      redirect: 'follow',
      maxBytes: MODEL_MAX_BYTES,
      timeoutMs: 0,
    })) as typeof fetch;
}

const fetchOfConfig = new WeakMap<Config, typeof fetch>();

/**
 * The model fetch under the server's policy (looked up per call, so a test resolver applies). One
 * per config, so the SDK models built over it can be reused (providers.ts caches them per fetch).
 */
export function modelFetchOf(config: Config): typeof fetch {
  let f = fetchOfConfig.get(config);
  if (!f) {
    f = modelFetch(() => outboundPolicyOf(config));
    fetchOfConfig.set(config, f);
  }
  return f;
}

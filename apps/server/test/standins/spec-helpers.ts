import type { ModelType } from '@lectern/shared';
import type { CallPolicy } from '../../src/models/call.js';
import { catalogueFactory } from '../../src/models/catalogue.js';
import type { ModelSpec } from '../../src/models/spec.js';
import { modelFetch } from '../../src/models/outbound.js';
import { createPolicy } from '../../src/net/index.js';

// Adapter tests call their stand-ins through the outbound guard, as the server does.
const standinPolicy = createPolicy({ ssrfAllow: '127.0.0.1' });

/** A ModelSpec as the registry would build it, for adapter tests against stand-ins. */
export function specOf(
  factoryName: string,
  name: string,
  type: ModelType,
  o: { apiKey?: string; baseUrl?: string; credentials?: Record<string, string>; callName?: string } = {},
): ModelSpec {
  const factory = catalogueFactory(factoryName);
  if (!factory) throw new Error(`no factory ${factoryName}`);
  return {
    id: `${name}@${factoryName}`,
    factory,
    storedName: name,
    callName: o.callName ?? name,
    modelType: type,
    apiKey: o.apiKey ?? '',
    credentials: o.credentials ?? {},
    baseUrl: o.baseUrl ?? factory.default_base_url,
    maxTokens: 8192,
    fetch: modelFetch(() => standinPolicy),
  };
}

/** Fast policy for tests: short time limit, quick backoff. */
export const fastPolicy: CallPolicy = { timeoutMs: 1500, retries: 2, retryBaseMs: 10 };

export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

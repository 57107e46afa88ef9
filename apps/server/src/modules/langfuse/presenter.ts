import type { TracingKeysDetail, TracingKeysInfo } from '@lectern/shared';
import { maskSecret } from '../../security/secrets.js';
import type { TracingKeys } from '../../tracing/index.js';

/** API.md §14 answer: the secret key is never sent back in full. */
export function presentKeys(tenantId: string, keys: TracingKeys): TracingKeysInfo {
  return {
    tenant_id: tenantId,
    secret_key: maskSecret(keys.secretKey),
    public_key: keys.publicKey,
    host: keys.host,
  };
}

export function presentKeysDetail(
  tenantId: string,
  keys: TracingKeys,
  project: { id: string; name: string },
): TracingKeysDetail {
  return { ...presentKeys(tenantId, keys), project_id: project.id, project_name: project.name };
}

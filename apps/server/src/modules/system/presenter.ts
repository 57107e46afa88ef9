import type { ApiTokenRow } from '@lectern/shared';
import type { ApiTokenTable } from '../../db/types.js';
import type { Secrets } from '../../security/secrets.js';
import { rfc1123 } from '../../util/time.js';

/** API key rows: the key is decrypted for its owner only; hashes never leave the server. */
export function presentApiToken(row: ApiTokenTable, secrets: Secrets, fresh = false): ApiTokenRow {
  return {
    tenant_id: row.tenant_id,
    token: secrets.decrypt(row.token),
    dialog_id: row.dialog_id,
    source: row.source,
    beta: row.beta,
    create_time: row.create_time,
    create_date: rfc1123(row.create_time) as string,
    update_time: fresh ? null : row.update_time,
    update_date: fresh ? null : rfc1123(row.update_time),
  };
}

import type { ApiTokenRow } from '@lectern/shared';
import type { ApiTokenTable } from '../../db/types.js';
import { rfc1123 } from '../../util/time.js';
import type { ShownToken } from './service.js';

/**
 * API key rows. Keys and beta tokens are stored only as keyed hashes plus hints, so `token` and `beta`
 * are the full values only in the answer that made them (new_token, or the list that gave a key its
 * missing beta token) and the masked hints everywhere else ("lectern-AbCd****wXyZ"); a client sends the
 * full key or that exact hint back to delete one. Hashes never leave the server.
 */
export function presentApiToken(shown: ShownToken, fresh = false): ApiTokenRow {
  const row: ApiTokenTable = shown.row;
  return {
    tenant_id: row.tenant_id,
    token: shown.token ?? row.token_hint,
    dialog_id: row.dialog_id,
    source: row.source,
    beta: shown.beta ?? row.beta_hint,
    create_time: row.create_time,
    create_date: rfc1123(row.create_time) as string,
    update_time: fresh ? null : row.update_time,
    update_date: fresh ? null : rfc1123(row.update_time),
  };
}

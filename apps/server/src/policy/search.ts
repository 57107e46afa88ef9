/**
 * Loader of the search apps (API.md §15): a live search app the caller may read (its tenant's
 * members) or manage (its creator), fetched and checked in one call.
 */
import type { Kysely, Selectable } from 'kysely';
import type { SearchTable } from '../db/tables/search.js';
import type { Database } from '../db/types.js';
import type { Refusal } from './refusals.js';
import { authorize, refusalFor, resource, type Action } from './rules.js';
import type { AccessScope } from './scope.js';

export type SearchRow = Selectable<SearchTable>;

/**
 * A live search app the caller may `action`. Unknown, removed and foreign ids get the same answer:
 * `refusal`, else the kind's default (read: 103 "Has no permission for this operation.", manage:
 * 109 "No authorization."). A non-string id is unknown.
 */
export async function loadSearch(
  db: Kysely<Database>,
  scope: AccessScope,
  searchId: unknown,
  action: Action,
  refusal?: Refusal,
): Promise<SearchRow> {
  const row =
    typeof searchId === 'string' && searchId !== ''
      ? await db
          .selectFrom('search')
          .selectAll()
          .where('id', '=', searchId)
          .where('status', '=', '1')
          .executeTakeFirst()
      : undefined;
  if (!row) throw refusal ? refusal() : refusalFor('search', action);
  authorize(scope, action, resource.search(row), refusal);
  return row;
}

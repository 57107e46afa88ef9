/** Reaching documents through their knowledge base under the tenancy policy (API.md §1.6). */
import type { AppContext } from '../../context.js';
import type { UserTable } from '../../db/types.js';
import { errors } from '../../http/envelope.js';
import { accessScopeOf, mayAccess, type AccessScope } from '../../policy/tenancy.js';
import type { DocumentTable, KnowledgebaseTable } from '../../db/tables/knowledge.js';

export interface DocWithKb {
  doc: DocumentTable;
  kb: KnowledgebaseTable;
}

export async function findDocWithKb(ctx: AppContext, docId: string): Promise<DocWithKb | null> {
  const doc = await ctx.db.kysely
    .selectFrom('document')
    .selectAll()
    .where('id', '=', docId)
    .executeTakeFirst();
  if (!doc) return null;
  const kb = await ctx.db.kysely
    .selectFrom('knowledgebase')
    .selectAll()
    .where('id', '=', doc.kb_id)
    .where('status', '=', '1')
    .executeTakeFirst();
  return kb ? { doc, kb } : null;
}

/** The document and its KB when the user may use the KB; otherwise 109 "No authorization.". */
export async function usableDoc(
  ctx: AppContext,
  user: UserTable,
  docId: string,
  scope?: AccessScope,
): Promise<DocWithKb> {
  const found = await findDocWithKb(ctx, docId);
  const s = scope ?? (await accessScopeOf(ctx.db, user.id));
  if (!found || !mayAccess(s, found.kb)) throw errors.noAuthorization();
  return found;
}

/** Every listed document must be usable (109 for the first that is not). */
export async function usableDocs(ctx: AppContext, user: UserTable, docIds: string[]): Promise<DocWithKb[]> {
  const scope = await accessScopeOf(ctx.db, user.id);
  const out: DocWithKb[] = [];
  for (const id of docIds) out.push(await usableDoc(ctx, user, id, scope));
  return out;
}

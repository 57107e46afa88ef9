/**
 * The document a chunk route names, under the tenancy policy (API.md §1.6, §7): an unknown document
 * is 102 "Document not found!", one the caller may not use is 109 "No authorization.", a document
 * whose KB or tenant is gone is 102 "Knowledgebase not found!" / "Tenant not found!".
 */
import type { AppContext } from '../../context.js';
import type { UserTable } from '../../db/types.js';
import { errors } from '../../http/envelope.js';
import { accessScopeOf, assertAccess } from '../../policy/tenancy.js';
import type { DocumentTable, KnowledgebaseTable } from '../../db/tables/knowledge.js';

export interface ChunkDoc {
  doc: DocumentTable;
  kb: KnowledgebaseTable;
}

export async function chunkDoc(ctx: AppContext, user: UserTable, docId: string): Promise<ChunkDoc> {
  const db = ctx.db.kysely;
  const doc = await db.selectFrom('document').selectAll().where('id', '=', docId).executeTakeFirst();
  if (!doc) throw errors.data('Document not found!');
  const kb = await db.selectFrom('knowledgebase').selectAll().where('id', '=', doc.kb_id).executeTakeFirst();
  if (!kb) throw errors.data('Tenant not found!');
  assertAccess(await accessScopeOf(ctx.db, user.id), kb);
  if (kb.status !== '1') throw errors.data('Knowledgebase not found!');
  const tenant = await db.selectFrom('tenant').select('id').where('id', '=', kb.tenant_id).executeTakeFirst();
  if (!tenant) throw errors.data('Tenant not found!');
  return { doc, kb };
}

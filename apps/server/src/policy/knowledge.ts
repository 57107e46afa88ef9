/**
 * Loaders of the knowledge area: each fetches a row (with the KB that governs it) and checks it
 * against ./rules.ts in one call, answering with the route's refusal. Routes differ only in which
 * refusal they give (API.md §5–§7): e.g. `kb/detail` answers 103 where `kb/<id>/tags` answers 109,
 * and `document/upload` answers an unknown KB with 100 where `document/create` answers 102.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';
import type { DocumentTable, KnowledgebaseTable } from '../db/tables/knowledge.js';
import { refusals, type Refusal } from './refusals.js';
import { authorize, isLive, permits, refusalFor, resource, type Action } from './rules.js';
import type { AccessScope } from './scope.js';

type Reader = Kysely<Database>;

/** The route's answers: for the row not existing, and for the rule saying no (default: the kind's). */
export interface Answers {
  missing?: Refusal;
  refused?: Refusal;
}

async function liveKb(db: Reader, kbId: string): Promise<KnowledgebaseTable | undefined> {
  return db
    .selectFrom('knowledgebase')
    .selectAll()
    .where('id', '=', kbId)
    .where('status', '=', '1')
    .executeTakeFirst();
}

function refuse(answer: Refusal | undefined, fallback: () => Error): never {
  throw answer ? answer() : fallback();
}

/** A live KB the caller may `action`; unknown ids get `missing` (else `refused`). */
export async function loadKb(
  db: Reader,
  scope: AccessScope,
  kbId: string,
  action: Action,
  answers: Answers = {},
): Promise<KnowledgebaseTable> {
  const kb = await liveKb(db, kbId);
  if (!kb) refuse(answers.missing ?? answers.refused, () => refusalFor('kb', action));
  authorize(scope, action, resource.kb(kb), answers.refused);
  return kb;
}

/** Every listed KB (in order; the first failing id answers). An empty list is refused too. */
export async function loadKbs(
  db: Reader,
  scope: AccessScope,
  kbIds: readonly string[],
  action: Action,
  answers: Answers = {},
): Promise<KnowledgebaseTable[]> {
  if (kbIds.length === 0) refuse(answers.refused, () => refusalFor('kb', action));
  const out: KnowledgebaseTable[] = [];
  for (const id of kbIds) out.push(await loadKb(db, scope, id, action, answers));
  return out;
}

export interface DocWithKb {
  doc: DocumentTable;
  kb: KnowledgebaseTable;
}

export interface DocumentAnswers extends Answers {
  /** The document exists but its KB is gone (default: `refused`). */
  kbMissing?: Refusal;
}

/** A document and its live KB, when the caller may `action` on documents of that KB. */
export async function loadDocument(
  db: Reader,
  scope: AccessScope,
  docId: string,
  action: Action,
  answers: DocumentAnswers = {},
): Promise<DocWithKb> {
  const fallback = () => refusalFor('document', action);
  const doc = await db.selectFrom('document').selectAll().where('id', '=', docId).executeTakeFirst();
  if (!doc) refuse(answers.missing ?? answers.refused, fallback);
  const kb = await liveKb(db, doc.kb_id);
  if (!kb) refuse(answers.kbMissing ?? answers.refused, fallback);
  authorize(scope, action, resource.document(kb), answers.refused);
  return { doc, kb };
}

/** Every listed document (in order; the first failing id answers). */
export async function loadDocuments(
  db: Reader,
  scope: AccessScope,
  docIds: readonly string[],
  action: Action,
  answers: DocumentAnswers = {},
): Promise<DocWithKb[]> {
  const out: DocWithKb[] = [];
  for (const id of docIds) out.push(await loadDocument(db, scope, id, action, answers));
  return out;
}

/** The tenant row of a KB's owner must still exist (chunk routes: 102 "Tenant not found!"). */
async function assertTenant(db: Reader, tenantId: string): Promise<void> {
  const tenant = await db.selectFrom('tenant').select('id').where('id', '=', tenantId).executeTakeFirst();
  if (!tenant) throw refusals.tenantNotFound();
}

/**
 * The document a chunk route names (API.md §7), in the chunk routes' order of answers: unknown
 * document 102 "Document not found!", KB row gone 102 "Tenant not found!", not the caller's 109,
 * KB soft-deleted 102 "Knowledgebase not found!", owner tenant gone 102 "Tenant not found!".
 */
export async function loadChunkDocument(
  db: Reader,
  scope: AccessScope,
  docId: string,
  action: Action,
): Promise<DocWithKb> {
  const doc = await db.selectFrom('document').selectAll().where('id', '=', docId).executeTakeFirst();
  if (!doc) throw refusals.documentNotFound();
  const kb = await db.selectFrom('knowledgebase').selectAll().where('id', '=', doc.kb_id).executeTakeFirst();
  if (!kb) throw refusals.tenantNotFound();
  const target = resource.chunk(kb);
  if (!permits(scope, action, target)) throw refusalFor('chunk', action);
  if (!isLive(target)) throw refusals.knowledgebaseNotFound();
  await assertTenant(db, kb.tenant_id);
  return { doc, kb };
}

/** The KB of a stored chunk, in the same order of answers as `loadChunkDocument`. */
export async function loadChunkKb(
  db: Reader,
  scope: AccessScope,
  chunk: { kb_id: string },
  action: Action,
): Promise<KnowledgebaseTable> {
  const kb = await db
    .selectFrom('knowledgebase')
    .selectAll()
    .where('id', '=', chunk.kb_id)
    .executeTakeFirst();
  if (!kb) throw refusals.tenantNotFound();
  const target = resource.chunk(kb);
  if (!permits(scope, action, target)) throw refusalFor('chunk', action);
  if (!isLive(target)) throw refusals.knowledgebaseNotFound();
  return kb;
}

/**
 * The KBs a retrieval searches (`chunk/retrieval_test`, API.md §7): any KB unknown or outside the
 * caller's reach is 103 "Only owner of dataset authorized for this operation.", then any
 * soft-deleted one is 102 "Knowledgebase not found!". Rows come back in the order of `kbIds`.
 */
export async function loadRetrievalKbs(
  db: Reader,
  scope: AccessScope,
  kbIds: readonly string[],
): Promise<KnowledgebaseTable[]> {
  const rows =
    kbIds.length > 0
      ? await db
          .selectFrom('knowledgebase')
          .selectAll()
          .where('id', 'in', [...kbIds])
          .execute()
      : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const kbs = kbIds.map((id) => byId.get(id));
  for (const kb of kbs) {
    if (!kb || !permits(scope, 'read', resource.kb(kb))) throw refusals.datasetOwner();
  }
  const found = kbs as KnowledgebaseTable[];
  if (found.some((kb) => !isLive(resource.kb(kb)))) throw refusals.knowledgebaseNotFound();
  return found;
}

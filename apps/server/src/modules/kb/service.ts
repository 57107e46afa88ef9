import { PARSER_IDS, RetCode, type BodyOf, type contract } from '@lectern/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { deleteKbChunksIn } from '../../chunk-index/transactional.js';
import { parseJson, toJson } from '../../db/json.js';
import type { UserTable } from '../../db/types.js';
import { ApiError, errors } from '../../http/envelope.js';
import { defaultParserConfig, effectiveParserConfig, mergeParserConfig } from '../../ingest/parser-config.js';
import { accessScopeOf, loadKb, readableKbs, refusals, type AccessScope } from '../../policy/index.js';
import { KB_RETRIEVAL_DEFAULTS } from '../../search/retrieval-defaults.js';
import { newId } from '../../util/ids.js';
import { creationStamps, updateStamps } from '../../util/time.js';
import { removeDocuments } from '../document/remove.js';
import { assertParserConfig } from './config-rules.js';
import { removeKbFolder, renameKbFolder } from '../file/kb-folder.js';
import { KB_NAME_LIMIT_BYTES, uniqueName, utf8Bytes } from './naming.js';
import { nameContains, type ListQuery } from './paging.js';
import type { KbListRow } from './presenter.js';
import type { KnowledgebaseTable } from '../../db/tables/knowledge.js';

type CreateKbBody = BodyOf<typeof contract.kb.create>;
type UpdateKbBody = BodyOf<typeof contract.kb.update>;

/** Chunk methods a KB or document may use: SPEC §9's thirteen plus the auto-selected ones. */
export function assertParserId(parserId: string): void {
  if (!(PARSER_IDS as readonly string[]).includes(parserId)) {
    throw new ApiError(RetCode.EXCEPTION_ERROR, `\`parser_id\` must be one of ${PARSER_IDS.join(', ')}.`);
  }
}

/** The contract's dataset-name checks (API.md §5); returns the trimmed name. */
export function checkKbName(name: unknown): string {
  if (typeof name !== 'string') throw errors.data('Dataset name must be string.');
  if (name.trim() === '') throw errors.data("Dataset name can't be empty.");
  if (utf8Bytes(name) > KB_NAME_LIMIT_BYTES) {
    throw errors.data(
      `Dataset name length is ${[...name].length} which is large than ${KB_NAME_LIMIT_BYTES}`,
    );
  }
  return name.trim();
}

export async function findKb(ctx: AppContext, kbId: string): Promise<KnowledgebaseTable | undefined> {
  return ctx.db.kysely
    .selectFrom('knowledgebase')
    .selectAll()
    .where('id', '=', kbId)
    .where('status', '=', '1')
    .executeTakeFirst();
}

/** The KB when the user may use it (owner tenant, or team member of a team-shared KB); else 109. */
export async function usableKb(ctx: AppContext, user: UserTable, kbId: string, scope?: AccessScope) {
  const db = ctx.db.kysely;
  return loadKb(db, scope ?? (await accessScopeOf(db, user.id)), kbId, 'read');
}

async function tenantNames(ctx: AppContext, tenantId: string, exceptId?: string): Promise<string[]> {
  let q = ctx.db.kysely
    .selectFrom('knowledgebase')
    .select('name')
    .where('tenant_id', '=', tenantId)
    .where('status', '=', '1');
  if (exceptId) q = q.where('id', '!=', exceptId);
  return (await q.execute()).map((r) => r.name);
}

export async function createKb(ctx: AppContext, user: UserTable, body: CreateKbBody): Promise<string> {
  const name = checkKbName(body.name);
  const tenant = await ctx.db.kysely
    .selectFrom('tenant')
    .selectAll()
    .where('id', '=', user.id)
    .executeTakeFirst();
  if (!tenant) throw errors.data('Tenant not found.');
  const parserId = body.parser_id ?? 'naive';
  assertParserId(parserId);
  const config = mergeParserConfig(defaultParserConfig(parserId), body.parser_config ?? {});
  if (config.llm_id === undefined) config.llm_id = tenant.llm_id;
  assertParserConfig(parserId, config);
  const id = newId();
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const taken = await trx
      .selectFrom('knowledgebase')
      .select('name')
      .where('tenant_id', '=', user.id)
      .where('status', '=', '1')
      .execute();
    await trx
      .insertInto('knowledgebase')
      .values({
        id,
        tenant_id: user.id,
        created_by: user.id,
        name: uniqueName(
          name,
          taken.map((t) => t.name),
          false,
        ),
        avatar: body.avatar ?? null,
        language: body.language ?? 'English',
        description: body.description ?? null,
        embd_id: body.embd_id ?? tenant.embd_id,
        permission: body.permission ?? 'me',
        doc_num: 0,
        token_num: 0,
        chunk_num: 0,
        similarity_threshold: KB_RETRIEVAL_DEFAULTS.similarityThreshold,
        vector_similarity_weight: KB_RETRIEVAL_DEFAULTS.vectorSimilarityWeight,
        parser_id: parserId,
        pipeline_id: null,
        parser_config: toJson(config),
        pagerank: body.pagerank ?? 0,
        graphrag_task_id: null,
        graphrag_task_finish_at: null,
        raptor_task_id: null,
        raptor_task_finish_at: null,
        mindmap_task_id: null,
        mindmap_task_finish_at: null,
        status: '1',
        ...creationStamps(),
      })
      .execute();
  });
  return id;
}

/** Only the KB's creator may change or remove it (API.md §5); unknown ids answer the same (109). */
async function ownKb(ctx: AppContext, user: UserTable, kbId: string): Promise<KnowledgebaseTable> {
  const db = ctx.db.kysely;
  return loadKb(db, await accessScopeOf(db, user.id), kbId, 'manage');
}

export async function updateKb(
  ctx: AppContext,
  user: UserTable,
  body: UpdateKbBody,
): Promise<KnowledgebaseTable> {
  const name = checkKbName(body.name);
  const kb = await ownKb(ctx, user, body.kb_id);
  if (name.toLowerCase() !== kb.name.toLowerCase()) {
    const names = await tenantNames(ctx, kb.tenant_id, kb.id);
    if (names.some((n) => n.toLowerCase() === name.toLowerCase()))
      throw errors.data('Duplicated dataset name.');
  }
  if (body.embd_id !== undefined && body.embd_id !== kb.embd_id && kb.chunk_num > 0) {
    throw errors.data(`When chunk_num (${kb.chunk_num}) > 0, embedding_model must remain ${kb.embd_id}`);
  }
  assertParserId(body.parser_id);
  let config = parseJson<Record<string, unknown>>(kb.parser_config, {});
  // A given parser_config replaces the stored one as given, partial objects included (API.md §5);
  // its values are checked with the method's defaults filled in, as parsing will use them (§19.6).
  if (body.parser_config !== undefined) config = body.parser_config;
  else if (body.parser_id !== kb.parser_id)
    config = mergeParserConfig(defaultParserConfig(body.parser_id), config);
  assertParserConfig(body.parser_id, effectiveParserConfig(body.parser_id, config));

  const patch = {
    name,
    description: body.description,
    parser_id: body.parser_id,
    parser_config: toJson(config),
    ...(body.avatar !== undefined ? { avatar: body.avatar } : {}),
    ...(body.language !== undefined ? { language: body.language } : {}),
    ...(body.permission !== undefined ? { permission: body.permission } : {}),
    ...(body.embd_id !== undefined ? { embd_id: body.embd_id } : {}),
    ...(body.pagerank !== undefined ? { pagerank: body.pagerank } : {}),
    ...(body.pipeline_id !== undefined ? { pipeline_id: body.pipeline_id } : {}),
    ...updateStamps(),
  };
  await ctx.db.kysely.transaction().execute(async (trx) => {
    await trx.updateTable('knowledgebase').set(patch).where('id', '=', kb.id).execute();
    if (name !== kb.name) await renameKbFolder(trx, kb.tenant_id, kb.name, name);
  });
  if (body.pagerank !== undefined && body.pagerank !== kb.pagerank) {
    const index = ctx.chunkIndex;
    await index.setPagerank(kb.id, body.pagerank);
  }
  const fresh = await findKb(ctx, kb.id);
  if (!fresh) throw errors.data("Can't find this dataset!");
  return fresh;
}

/** `kb/detail`: readable by members of the KB's tenant under the tenancy policy, else 103. */
export async function kbDetail(ctx: AppContext, user: UserTable, kbId: string) {
  const db = ctx.db.kysely;
  const kb = await loadKb(db, await accessScopeOf(db, user.id), kbId, 'read', {
    refused: refusals.datasetOwner,
  });
  const sum = await ctx.db.kysely
    .selectFrom('document')
    .select((eb) => eb.fn.sum<number>('size').as('size'))
    .where('kb_id', '=', kb.id)
    .executeTakeFirst();
  return { kb, size: Number(sum?.size ?? 0) };
}

const KB_ORDER = [
  'create_time',
  'update_time',
  'name',
  'doc_num',
  'chunk_num',
  'token_num',
  'permission',
] as const;
export const KB_ORDER_COLUMNS: readonly string[] = KB_ORDER;

/** `kb/list`: the caller's KBs plus team-shared KBs of its teams; `owner_ids` narrows the tenants. */
export async function listKbs(
  ctx: AppContext,
  user: UserTable,
  q: ListQuery & { parserId?: string; ownerIds?: string[] },
): Promise<{ rows: KbListRow[]; total: number }> {
  const scope = await accessScopeOf(ctx.db.kysely, user.id);
  let base = ctx.db.kysely
    .selectFrom('knowledgebase as kb')
    .where(readableKbs(scope, { alias: 'kb', ownerIds: q.ownerIds }));
  if (q.keywords) base = base.where(nameContains('kb.name', q.keywords));
  if (q.parserId) base = base.where('kb.parser_id', '=', q.parserId);
  const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  let rowsQ = base
    .leftJoin('user as u', 'u.id', 'kb.tenant_id')
    .selectAll('kb')
    .select(['u.nickname as nickname', 'u.avatar as tenant_avatar'])
    .orderBy(
      q.orderby === 'name' ? sql`lower(kb.name)` : sql.ref(`kb.${q.orderby as (typeof KB_ORDER)[number]}`),
      q.desc ? 'desc' : 'asc',
    )
    .orderBy('kb.id');
  if (q.page > 0 && q.pageSize > 0) rowsQ = rowsQ.limit(q.pageSize).offset((q.page - 1) * q.pageSize);
  return { rows: (await rowsQ.execute()) as KbListRow[], total: Number(count?.n ?? 0) };
}

/** `kb/rm`: the creator removes the KB with every document, chunk, task, blob and mirror entry. */
export async function removeKb(ctx: AppContext, user: UserTable, kbId: string): Promise<void> {
  const kb = await ownKb(ctx, user, kbId);
  const docs = await ctx.db.kysely.selectFrom('document').selectAll().where('kb_id', '=', kb.id).execute();
  await removeDocuments(ctx, kb, docs);
  await ctx.db.kysely.transaction().execute(async (trx) => {
    await removeKbFolder(trx, kb.tenant_id, kb.name);
    await trx.deleteFrom('task').where('kb_id', '=', kb.id).execute();
    await deleteKbChunksIn(ctx.chunkIndex, trx, kb.id);
    await trx.deleteFrom('knowledgebase').where('id', '=', kb.id).execute();
  });
  const index = ctx.chunkIndex;
  await index.deleteByKb(kb.id);
  await ctx.blobs.deletePrefix(kb.id);
}

import { RetCode } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { deleteDocChunksIn } from '../../chunk-index/transactional.js';
import { parseJson, toJson } from '../../db/json.js';
import type { UserTable } from '../../db/types.js';
import { ApiError, errors } from '../../http/envelope.js';
import { mergeParserConfig } from '../../ingest/parser-config.js';
import {
  accessScopeOf,
  loadDocument,
  loadDocuments,
  loadKb,
  refusals,
  type Action,
  type DocWithKb,
} from '../../policy/index.js';
import { cancelDocument, hasUnfinishedTasks } from '../../ingest/tasks/cancel.js';
import { queueDocument } from '../../ingest/tasks/enqueue.js';
import { newId } from '../../util/ids.js';
import { creationStamps, updateStamps } from '../../util/time.js';
import { renameDocChunks } from '../../chunk-index/chunk-store.js';
import { assertParserConfig } from '../kb/config-rules.js';
import { addMirrorFile, renameDocLinks } from '../file/kb-folder.js';
import { isUniqueViolation } from '../../db/locks.js';
import { extensionOf, FILE_NAME_LIMIT_BYTES, sanitizeFileName, utf8Bytes } from '../kb/naming.js';
import { assertParserId } from '../kb/service.js';
import type { DocumentTable } from '../../db/tables/knowledge.js';
import { removeDocuments } from './remove.js';

export type { DocWithKb };

/** The document and its KB when the user may use the KB; otherwise 109 "No authorization.". */
export async function usableDoc(
  ctx: AppContext,
  user: UserTable,
  docId: string,
  action: Action = 'read',
): Promise<DocWithKb> {
  const db = ctx.db.kysely;
  return loadDocument(db, await accessScopeOf(db, user.id), docId, action);
}

/** Every listed document must be usable (109 for the first that is not). */
export async function usableDocs(
  ctx: AppContext,
  user: UserTable,
  docIds: string[],
  action: Action = 'read',
): Promise<DocWithKb[]> {
  const db = ctx.db.kysely;
  return loadDocuments(db, await accessScopeOf(db, user.id), docIds, action);
}

export function checkFileName(name: string): string {
  if (utf8Bytes(name) > FILE_NAME_LIMIT_BYTES) throw errors.argument('File name must be 255 bytes or less.');
  const clean = sanitizeFileName(name);
  if (clean === '') throw errors.argument("File name can't be empty.");
  return clean;
}

async function nameTaken(ctx: AppContext, kbId: string, name: string, exceptId?: string): Promise<boolean> {
  let q = ctx.db.kysely.selectFrom('document').select(['id', 'name']).where('kb_id', '=', kbId);
  if (exceptId) q = q.where('id', '!=', exceptId);
  const rows = await q.execute();
  return rows.some((r) => r.name.toLowerCase() === name.toLowerCase());
}

/** `change_status`: per-id results; any failure makes the answer 500 "Partial failure". */
export async function changeStatus(ctx: AppContext, user: UserTable, docIds: string[], status: unknown) {
  const value = typeof status === 'number' ? String(status) : status;
  if (value !== '0' && value !== '1') throw errors.argument('"Status" must be either 0 or 1!');
  const db = ctx.db.kysely;
  const scope = await accessScopeOf(db, user.id);
  const result: Record<string, { status: string } | { error: string }> = {};
  let failed = false;
  for (const id of docIds) {
    try {
      await loadDocument(db, scope, id, 'manage', { kbMissing: refusals.datasetMissing });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      result[id] = { error: err.message };
      failed = true;
      continue;
    }
    try {
      await ctx.db.kysely
        .updateTable('document')
        .set({ status: value, ...updateStamps() })
        .where('id', '=', id)
        .execute();
      await ctx.chunkIndex.setAvailableByDoc(id, Number(value));
      result[id] = { status: value };
    } catch {
      result[id] = { error: 'Database error (Document update)!' };
      failed = true;
    }
  }
  if (failed) throw new ApiError(RetCode.SERVER_ERROR, 'Partial failure', result);
  return result;
}

export async function removeDocs(ctx: AppContext, user: UserTable, docIds: string[]): Promise<void> {
  const found = await usableDocs(ctx, user, docIds, 'manage');
  const byKb = new Map<string, { kb: (typeof found)[number]['kb']; docs: DocumentTable[] }>();
  for (const f of found) {
    const entry = byKb.get(f.kb.id) ?? { kb: f.kb, docs: [] };
    entry.docs.push(f.doc);
    byKb.set(f.kb.id, entry);
  }
  const problems: string[] = [];
  for (const { kb, docs } of byKb.values()) problems.push(...(await removeDocuments(ctx, kb, docs)));
  if (problems.length > 0) throw new ApiError(RetCode.SERVER_ERROR, problems.join('\n'), false);
}

export async function renameDoc(
  ctx: AppContext,
  user: UserTable,
  docId: string,
  rawName: string,
): Promise<void> {
  const { doc, kb } = await usableDoc(ctx, user, docId, 'manage');
  if (extensionOf(rawName.trim()) !== extensionOf(doc.name))
    throw errors.argument("The extension of file can't be changed");
  const name = checkFileName(rawName);
  if (await nameTaken(ctx, kb.id, name, doc.id))
    throw errors.data('Duplicated document name in the same dataset.');
  await ctx.db.kysely
    .transaction()
    .execute(async (trx) => {
      await trx
        .updateTable('document')
        .set({ name, ...updateStamps() })
        .where('id', '=', doc.id)
        .execute();
      await renameDocLinks(trx, doc.id, name);
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw errors.data('Duplicated document name in the same dataset.');
      throw err;
    });
  await renameDocChunks(ctx.chunkIndex, kb.id, doc.id, name);
}

function sameJson(a: unknown, b: unknown): boolean {
  const norm = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(norm)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v as object)
              .sort()
              .map((k) => [k, norm((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

/** Deletes a document's chunks, tasks and counters, leaving it unparsed (run "0"). */
async function resetDocument(
  ctx: AppContext,
  doc: DocumentTable,
  patch: Partial<DocumentTable>,
): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('task').where('doc_id', '=', doc.id).where('kind', '=', 'parse').execute();
    await deleteDocChunksIn(ctx.chunkIndex, trx, [doc.id]);
    const fresh = await trx
      .selectFrom('document')
      .select(['chunk_num', 'token_num'])
      .where('id', '=', doc.id)
      .executeTakeFirst();
    await trx
      .updateTable('knowledgebase')
      .set((eb) => ({
        chunk_num: eb('chunk_num', '-', Number(fresh?.chunk_num ?? 0)),
        token_num: eb('token_num', '-', Number(fresh?.token_num ?? 0)),
      }))
      .where('id', '=', doc.kb_id)
      .execute();
    await trx
      .updateTable('document')
      .set({
        ...patch,
        run: '0',
        progress: 0,
        progress_msg: '',
        chunk_num: 0,
        token_num: 0,
        process_duration: 0,
        ...updateStamps(),
      })
      .where('id', '=', doc.id)
      .execute();
  });
  await ctx.chunkIndex.deleteByDoc(doc.id);
  await ctx.blobs.deletePrefix(doc.id);
}

const PRESENTATION_EXT = new Set(['ppt', 'pptx', 'pages']);

export async function changeParser(
  ctx: AppContext,
  user: UserTable,
  body: {
    doc_id: string;
    parser_id?: string;
    parser_config?: Record<string, unknown>;
    pipeline_id?: string | null;
  },
): Promise<void> {
  const { doc } = await usableDoc(ctx, user, body.doc_id, 'manage');
  const parserId = body.parser_id ?? doc.parser_id;
  const current = parseJson<Record<string, unknown>>(doc.parser_config, {});
  const config = body.parser_config ? mergeParserConfig(current, body.parser_config) : current;
  if (parserId.toLowerCase() === doc.parser_id.toLowerCase() && sameJson(config, current)) {
    if (body.pipeline_id !== undefined && body.pipeline_id !== doc.pipeline_id) {
      await ctx.db.kysely
        .updateTable('document')
        .set({ pipeline_id: body.pipeline_id })
        .where('id', '=', doc.id)
        .execute();
    }
    return;
  }
  assertParserId(parserId);
  if (
    (doc.type === 'visual' && parserId !== 'picture') ||
    (PRESENTATION_EXT.has(doc.suffix) && parserId !== 'presentation')
  ) {
    throw errors.data('Not supported yet!');
  }
  assertParserConfig(parserId, config);
  await resetDocument(ctx, doc, {
    parser_id: parserId,
    parser_config: toJson(config),
    ...(body.pipeline_id !== undefined ? { pipeline_id: body.pipeline_id } : {}),
  });
}

/** `document/create`: an empty (virtual) document, mirrored in the KB's file-manager folder. */
export async function createVirtualDoc(
  ctx: AppContext,
  user: UserTable,
  rawName: string,
  kbId: string,
): Promise<DocumentTable> {
  if (!kbId) throw errors.argument('Lack of "KB ID"');
  if (utf8Bytes(rawName) > FILE_NAME_LIMIT_BYTES)
    throw errors.argument('File name must be 255 bytes or less.');
  if (rawName.trim() === '') throw errors.argument("File name can't be empty.");
  const name = checkFileName(rawName);
  const db = ctx.db.kysely;
  const kb = await loadKb(db, await accessScopeOf(db, user.id), kbId, 'read', {
    missing: refusals.datasetMissing,
  });
  if (await nameTaken(ctx, kb.id, name)) throw errors.data('Duplicated document name in the same dataset.');
  const row: DocumentTable = {
    id: newId(),
    kb_id: kb.id,
    created_by: user.id,
    name,
    type: 'virtual',
    suffix: extensionOf(name),
    location: '',
    blob_key: null,
    size: 0,
    thumbnail: null,
    parser_id: kb.parser_id,
    pipeline_id: kb.pipeline_id,
    parser_config: toJson(parseJson(kb.parser_config, {})),
    source_type: 'local',
    token_num: 0,
    chunk_num: 0,
    progress: 0,
    progress_msg: '',
    process_begin_at: null,
    process_duration: 0,
    run: '0',
    status: '1',
    meta_fields: toJson({}),
    ...creationStamps(),
  };
  await ctx.db.kysely
    .transaction()
    .execute(async (trx) => {
      await trx.insertInto('document').values(row).execute();
      await trx
        .updateTable('knowledgebase')
        .set((eb) => ({ doc_num: eb('doc_num', '+', 1) }))
        .where('id', '=', kb.id)
        .execute();
      await addMirrorFile(trx, kb.tenant_id, kb.name, row);
    })
    .catch((err: unknown) => {
      // Another request took the name between the check and the insert (unique index).
      if (isUniqueViolation(err)) throw errors.data('Duplicated document name in the same dataset.');
      throw err;
    });
  return row;
}

function isScalar(v: unknown): boolean {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/** `set_meta`: `meta` is a JSON string of a flat object of strings/numbers or lists of them. */
export async function setMeta(ctx: AppContext, user: UserTable, docId: string, meta: unknown): Promise<void> {
  await usableDoc(ctx, user, docId, 'manage');
  let parsed: unknown;
  try {
    if (typeof meta !== 'string') throw new Error('the meta must be a JSON string');
    parsed = JSON.parse(meta);
  } catch (err) {
    throw errors.argument(`Json syntax error: ${(err as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw errors.argument('Only dictionary type supported.');
  for (const v of Object.values(parsed as Record<string, unknown>)) {
    if (Array.isArray(v)) {
      if (!v.every(isScalar))
        throw errors.argument(`The type is not supported in list: ${JSON.stringify(v)}`);
    } else if (!isScalar(v)) {
      throw errors.argument(`The type is not supported: ${JSON.stringify(v)}`);
    }
  }
  const res = await ctx.db.kysely
    .updateTable('document')
    .set({ meta_fields: toJson(parsed), ...updateStamps() })
    .where('id', '=', docId)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) throw errors.data('Document not found!');
}

/** `run`: "1" queues parsing (optionally clearing first, optionally re-applying KB settings); "2" cancels. */
export async function runDocs(
  ctx: AppContext,
  user: UserTable,
  body: { doc_ids: string[]; run: string | number; delete?: boolean; apply_kb?: boolean },
): Promise<void> {
  const run = String(body.run);
  if (run !== '1' && run !== '2') throw errors.argument(`required argument values: run=${run}`);
  const found = await usableDocs(ctx, user, body.doc_ids, 'manage');
  for (const { doc: listed, kb } of found) {
    const tenant = await ctx.db.kysely
      .selectFrom('tenant')
      .select('id')
      .where('id', '=', kb.tenant_id)
      .executeTakeFirst();
    if (!tenant) throw errors.data('Tenant not found!');
    const doc = await ctx.db.kysely
      .selectFrom('document')
      .selectAll()
      .where('id', '=', listed.id)
      .executeTakeFirst();
    if (!doc) throw errors.data('Document not found!');
    if (run === '2') {
      if (doc.run !== '1' && doc.run !== '2' && !(await hasUnfinishedTasks(ctx, doc.id))) {
        throw errors.data('Cannot cancel a task that is not in RUNNING status');
      }
      await cancelDocument(ctx, doc.id);
      continue;
    }
    if (body.apply_kb) {
      const kbConfig = parseJson<Record<string, unknown>>(kb.parser_config, {});
      const docConfig = parseJson<Record<string, unknown>>(doc.parser_config, {});
      for (const key of ['llm_id', 'enable_metadata', 'metadata']) {
        if (kbConfig[key] !== undefined) docConfig[key] = kbConfig[key];
      }
      doc.parser_config = toJson(docConfig);
      await ctx.db.kysely
        .updateTable('document')
        .set({ parser_config: doc.parser_config })
        .where('id', '=', doc.id)
        .execute();
    }
    if (body.delete === true) await ctx.blobs.deletePrefix(doc.id);
    await queueDocument(ctx, doc, kb, { clear: body.delete === true });
  }
}

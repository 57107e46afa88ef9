/**
 * Storing uploaded files as documents of a KB (API.md §6 upload): unsupported types and files whose
 * content contradicts their extension are refused per file; the others get a unique name in the KB,
 * their bytes in the KB's bucket, a PNG thumbnail (PDFs, images), the method the type requires
 * (images → picture, slides → presentation, mail → email, audio → audio) and a mirror entry in the
 * file manager's `.knowledgebase/<kb name>/` folder.
 */
import type { AppContext } from '../../context.js';
import { parseJson, toJson } from '../../db/json.js';
import { sql, type Transaction } from 'kysely';
import { lockRow } from '../../db/locks.js';
import type { Database, UserTable } from '../../db/types.js';
import { newId } from '../../util/ids.js';
import { creationStamps } from '../../util/time.js';
import { addMirrorEntry, kbFolderOf } from '../file/kb-folder.js';
import { extensionOf, sanitizeFileName, uniqueName } from '../kb/naming.js';
import type { DocumentTable, KnowledgebaseTable } from '../../db/tables/knowledge.js';
import { contentMatches, docTypeOf, isAllowedUpload } from './file-kind.js';

export const UNSUPPORTED = 'This type of file has not been supported yet!';
export const BAD_FORMAT =
  'There seems to be an issue with your file format. Please verify it is correct and not corrupted.';
export const OVER_CAP = 'Exceed the maximum file number of a free user!';

export interface IncomingDoc {
  filename: string;
  bytes: Buffer;
}

export interface StoreResult {
  docs: DocumentTable[];
  /** `<filename>: <reason>` per refused file. */
  errors: string[];
  /** Files refused only because their content contradicts their extension. */
  badFormat: number;
}

/** The chunk method a file's type requires, else the KB's. */
export function parserFor(type: string, ext: string, kbParser: string): string {
  if (type === 'visual') return 'picture';
  if (type === 'aural') return 'audio';
  if (['ppt', 'pptx', 'pages'].includes(ext)) return 'presentation';
  if (['eml', 'msg'].includes(ext)) return 'email';
  return kbParser;
}

async function thumbnailOf(
  ctx: AppContext,
  type: string,
  ext: string,
  bytes: Buffer,
): Promise<Buffer | null> {
  if (ext !== 'pdf' && type !== 'visual') return null;
  try {
    const out = await ctx.parsePool.run<Uint8Array | null>(
      'thumbnail',
      { bytes, ext },
      { timeoutMs: 60_000 },
    );
    return out ? Buffer.from(out.buffer, out.byteOffset, out.byteLength) : null;
  } catch {
    return null; // a missing thumbnail never blocks an upload
  }
}

async function tenantDocCount(ctx: AppContext, tenantId: string): Promise<number> {
  const row = await ctx.db.kysely
    .selectFrom('document as d')
    .innerJoin('knowledgebase as kb', 'kb.id', 'd.kb_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('kb.tenant_id', '=', tenantId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * The first free name for `wanted` in the KB, read inside the transaction that inserts it. Only the
 * names that can collide are read: those starting with the stem `uniqueName` counts from.
 */
export async function freeNameIn(trx: Transaction<Database>, kbId: string, wanted: string): Promise<string> {
  const ext = extensionOf(wanted) ? wanted.slice(wanted.lastIndexOf('.')) : '';
  const stem = (ext ? wanted.slice(0, -ext.length) : wanted).replace(/\(\d+\)$/, '');
  const pattern = `${stem.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await trx
    .selectFrom('document')
    .select('name')
    .where('kb_id', '=', kbId)
    .where(sql<boolean>`lower(name) like ${pattern} escape '\\'`)
    .execute();
  return uniqueName(
    wanted,
    rows.map((r) => r.name),
    true,
  );
}

/**
 * Inserts `doc` under the first free name in its KB, with its mirror entry and the KB counter, in
 * one transaction holding the KB row: parallel uploads of one name get `a.txt`, `a(1).txt`, …
 * (the unique index on (kb_id, name) backs this up). Returns the stored row.
 */
async function insertUniquelyNamed(
  ctx: AppContext,
  kb: KnowledgebaseTable,
  doc: DocumentTable,
): Promise<DocumentTable> {
  return ctx.db.kysely.transaction().execute(async (trx) => {
    await lockRow(trx, ctx.db.dialect, 'knowledgebase', kb.id);
    const stored = { ...doc, name: await freeNameIn(trx, kb.id, doc.name) };
    await trx.insertInto('document').values(stored).execute();
    await trx
      .updateTable('knowledgebase')
      .set((eb) => ({ doc_num: eb('doc_num', '+', 1) }))
      .where('id', '=', kb.id)
      .execute();
    const folder = await kbFolderOf(trx, kb.tenant_id, kb.name);
    await addMirrorEntry(trx, kb.tenant_id, folder.id, stored);
    return stored;
  });
}

/**
 * Stores `files` one by one (in order), returning what was stored and why the others were not.
 * Each file gets its own blob, keyed by the new document's id (never by its name, which another
 * upload may be choosing at the same moment), written before its row and removed if the row fails.
 */
export async function storeUploads(
  ctx: AppContext,
  user: UserTable,
  kb: KnowledgebaseTable,
  files: Array<{ filename: string; load: () => Promise<Buffer> }>,
  sourceType = 'local',
): Promise<StoreResult> {
  const result: StoreResult = { docs: [], errors: [], badFormat: 0 };
  const cap = ctx.config.maxDocsPerTenant;
  let count = cap > 0 ? await tenantDocCount(ctx, kb.tenant_id) : 0;
  const kbConfig = parseJson<Record<string, unknown>>(kb.parser_config, {});

  for (const file of files) {
    const clean = sanitizeFileName(file.filename);
    const ext = extensionOf(clean);
    const type = docTypeOf(ext);
    if (cap > 0 && count >= cap) {
      result.errors.push(`${file.filename}: ${OVER_CAP}`);
      continue;
    }
    if (type === 'other' || !isAllowedUpload(ext)) {
      result.errors.push(`${file.filename}: ${UNSUPPORTED}`);
      continue;
    }
    const bytes = await file.load();
    if (!contentMatches(bytes, ext)) {
      result.errors.push(`${file.filename}: ${BAD_FORMAT}`);
      result.badFormat += 1;
      continue;
    }
    const id = newId();
    const location = ext ? `${id}.${ext}` : id;
    const blobKey = `${kb.id}/${location}`;
    await ctx.blobs.put(blobKey, bytes);
    const thumb = await thumbnailOf(ctx, type, ext, bytes);
    if (thumb) await ctx.blobs.put(`${kb.id}/thumbnail_${id}.png`, thumb);
    const doc: DocumentTable = {
      id,
      kb_id: kb.id,
      created_by: user.id,
      name: clean,
      type,
      suffix: ext,
      location,
      blob_key: blobKey,
      size: bytes.length,
      thumbnail: thumb ? `thumbnail_${id}.png` : null,
      parser_id: parserFor(type, ext, kb.parser_id),
      pipeline_id: kb.pipeline_id,
      parser_config: toJson(kbConfig),
      source_type: sourceType,
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
    let stored: DocumentTable;
    try {
      stored = await insertUniquelyNamed(ctx, kb, doc);
    } catch (err) {
      await ctx.blobs.delete(blobKey);
      if (thumb) await ctx.blobs.delete(`${kb.id}/thumbnail_${id}.png`);
      throw err;
    }
    count += 1;
    result.docs.push(stored);
  }
  return result;
}

/**
 * Storing uploaded files as documents of a KB (API.md §6 upload): unsupported types and files whose
 * content contradicts their extension are refused per file; the others get a unique name in the KB,
 * their bytes in the KB's bucket, a PNG thumbnail (PDFs, images), the method the type requires
 * (images → picture, slides → presentation, mail → email, audio → audio) and a mirror entry in the
 * file manager's `.knowledgebase/<kb name>/` folder.
 */
import type { AppContext } from '../../context.js';
import { parseJson, toJson } from '../../db/json.js';
import type { UserTable } from '../../db/types.js';
import { newId } from '../../util/ids.js';
import { creationStamps } from '../../util/time.js';
import { addMirrorEntry, kbFolderOf } from '../kb/kb-folder.js';
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

/** Stores `files` one by one (in order), returning what was stored and why the others were not. */
export async function storeUploads(
  ctx: AppContext,
  user: UserTable,
  kb: KnowledgebaseTable,
  files: Array<{ filename: string; load: () => Promise<Buffer> }>,
  sourceType = 'local',
): Promise<StoreResult> {
  const result: StoreResult = { docs: [], errors: [], badFormat: 0 };
  const existing = await ctx.db.kysely
    .selectFrom('document')
    .select(['name', 'location'])
    .where('kb_id', '=', kb.id)
    .execute();
  const names = existing.map((d) => d.name);
  const locations = new Set(existing.map((d) => d.location));
  const cap = ctx.config.maxDocsPerTenant;
  let count = cap > 0 ? await tenantDocCount(ctx, kb.tenant_id) : 0;
  const kbConfig = parseJson<Record<string, unknown>>(kb.parser_config, {});
  let folderId: string | null = null;

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
    const name = uniqueName(clean, names, true);
    names.push(name);
    let location = name;
    while (locations.has(location) || (await ctx.blobs.exists(`${kb.id}/${location}`))) location += '_';
    locations.add(location);
    await ctx.blobs.put(`${kb.id}/${location}`, bytes);
    const id = newId();
    const thumb = await thumbnailOf(ctx, type, ext, bytes);
    if (thumb) await ctx.blobs.put(`${kb.id}/thumbnail_${id}.png`, thumb);
    const doc: DocumentTable = {
      id,
      kb_id: kb.id,
      created_by: user.id,
      name,
      type,
      suffix: ext,
      location,
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
    folderId ??= (await kbFolderOf(ctx.db.kysely, kb.tenant_id, kb.name)).id;
    const folder = folderId;
    await ctx.db.kysely.transaction().execute(async (trx) => {
      await trx.insertInto('document').values(doc).execute();
      await trx
        .updateTable('knowledgebase')
        .set((eb) => ({ doc_num: eb('doc_num', '+', 1) }))
        .where('id', '=', kb.id)
        .execute();
      await addMirrorEntry(trx, kb.tenant_id, folder, doc);
    });
    count += 1;
    result.docs.push(doc);
  }
  return result;
}

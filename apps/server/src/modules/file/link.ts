/**
 * Linking files to knowledge bases (API.md §12.1 `file2document/convert`): folders expand to every
 * file beneath them; for each file its existing links and their documents are removed first, then
 * one document per KB is created that reads the file's blob by reference (no copy) and one
 * `file2document` row links them. Documents start unparsed (`run "0"`); the client's
 * parse-on-creation option then calls `document/run`. The file must be the caller's; the KB one the
 * caller may add documents to (its own, or a team KB it is a member of).
 */
import type { AppContext } from '../../context.js';
import { parseJson, toJson } from '../../db/json.js';
import { lockRow } from '../../db/locks.js';
import type { FileTable } from '../../db/types.js';
import type { DocumentTable, KnowledgebaseTable } from '../../db/tables/knowledge.js';
import { errors } from '../../http/envelope.js';
import { loadFile, loadKb, refusals } from '../../policy/index.js';
import { newId } from '../../util/ids.js';
import { creationStamps, nowMs } from '../../util/time.js';
import { freeNameIn, parserFor, UNSUPPORTED } from '../document/upload.js';
import { extensionOf } from '../kb/naming.js';
import { KB_SOURCE_TYPE } from './kb-folder.js';
import { idListOf, removeDocsById } from './remove.js';
import { readOnly, type Caller } from './service.js';
import { descendantsOf } from './tree.js';

export interface CreatedLink {
  id: string;
  file_id: string;
  document_id: string;
  kb_id: string;
  create_time: number;
  update_time: number;
}

/** The files named, folders expanded to the files beneath them (`other` files among those skipped). */
async function filesToLink(ctx: AppContext, caller: Caller, ids: string[]): Promise<FileTable[]> {
  const db = ctx.db.kysely;
  const out = new Map<string, FileTable>();
  for (const id of ids) {
    const file = await loadFile(db, caller.scope, id, 'manage', {
      missing: () => errors.data('File not found!'),
    });
    if (file.source_type === KB_SOURCE_TYPE) throw readOnly();
    if (file.type === 'folder') {
      for (const f of await descendantsOf(db, [file.id]))
        if (f.type !== 'folder' && f.type !== 'other' && f.source_type !== KB_SOURCE_TYPE) out.set(f.id, f);
    } else {
      if (file.type === 'other') throw errors.argument(`${file.name}: ${UNSUPPORTED}`);
      out.set(file.id, file);
    }
  }
  return [...out.values()];
}

function documentFor(file: FileTable, kb: KnowledgebaseTable, createdBy: string): DocumentTable {
  const ext = extensionOf(file.name);
  return {
    id: newId(),
    kb_id: kb.id,
    created_by: createdBy,
    name: file.name,
    type: file.type,
    suffix: ext,
    location: file.location,
    blob_key: file.blob_key,
    size: Number(file.size),
    thumbnail: null,
    parser_id: parserFor(file.type, ext, kb.parser_id),
    pipeline_id: kb.pipeline_id,
    parser_config: toJson(parseJson<Record<string, unknown>>(kb.parser_config, {})),
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
}

export async function linkFiles(
  ctx: AppContext,
  caller: Caller,
  rawFileIds: unknown,
  rawKbIds: unknown,
): Promise<CreatedLink[]> {
  const fileIds = idListOf(rawFileIds, 'file_ids');
  const kbIds = idListOf(rawKbIds, 'kb_ids');
  const db = ctx.db.kysely;
  const kbs: KnowledgebaseTable[] = [];
  for (const id of kbIds)
    kbs.push(await loadKb(db, caller.scope, id, 'read', { missing: refusals.datasetMissing }));
  const files = await filesToLink(ctx, caller, fileIds);

  const links: CreatedLink[] = [];
  for (const file of files) {
    const old = await db
      .selectFrom('file2document')
      .select('document_id')
      .where('file_id', '=', file.id)
      .execute();
    await removeDocsById(
      ctx,
      old.map((l) => l.document_id),
    );
    await db.deleteFrom('file2document').where('file_id', '=', file.id).execute();
    for (const kb of kbs) {
      const doc = documentFor(file, kb, caller.user.id);
      const now = nowMs();
      const link: CreatedLink = {
        id: newId(),
        file_id: file.id,
        document_id: doc.id,
        kb_id: kb.id,
        create_time: now,
        update_time: now,
      };
      await db.transaction().execute(async (trx) => {
        await lockRow(trx, ctx.db.dialect, 'knowledgebase', kb.id);
        doc.name = await freeNameIn(trx, kb.id, file.name);
        await trx.insertInto('document').values(doc).execute();
        await trx
          .updateTable('knowledgebase')
          .set((eb) => ({ doc_num: eb('doc_num', '+', 1) }))
          .where('id', '=', kb.id)
          .execute();
        await trx
          .insertInto('file2document')
          .values({ id: link.id, file_id: file.id, document_id: doc.id, ...creationStamps(now) })
          .execute();
      });
      links.push(link);
    }
  }
  return links;
}

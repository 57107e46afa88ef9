/**
 * `file/kb_files` (Lectern addition to API.md §12): the file-manager files linked to one knowledge
 * base, with the document each link created and its parsing state — the knowledge base's Files tab.
 * Anyone who may read the knowledge base may list them (API.md §12.2: a file linked to a KB the
 * caller may use is readable).
 */
import type { DocRun } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { loadKb, refusals } from '../../policy/index.js';
import { nameContains, type ListQuery } from '../kb/paging.js';
import { presentFile } from './presenter.js';
import type { Caller } from './service.js';

export async function kbLinkedFiles(ctx: AppContext, caller: Caller, kbId: string, q: ListQuery) {
  const db = ctx.db.kysely;
  await loadKb(db, caller.scope, kbId, 'read', { missing: refusals.datasetMissing });
  let base = db
    .selectFrom('file2document as f2d')
    .innerJoin('document as d', 'd.id', 'f2d.document_id')
    .innerJoin('file as f', 'f.id', 'f2d.file_id')
    .where('d.kb_id', '=', kbId);
  if (q.keywords) base = base.where(nameContains('f.name', q.keywords));
  const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const size = q.pageSize > 0 ? q.pageSize : 15;
  const pageNo = q.page > 0 ? q.page : 1;
  const rows = await base
    .selectAll('f')
    .select(['d.id as document_id', 'd.run as run', 'd.progress as progress'])
    .orderBy('f.name')
    .orderBy('f.id')
    .limit(size)
    .offset((pageNo - 1) * size)
    .execute();
  return {
    total: Number(counted?.n ?? 0),
    files: rows.map(({ document_id, run, progress, ...file }) => ({
      ...presentFile(file),
      document_id,
      // Documents are only written with the run statuses of API.md §1.8.
      run: String(run) as DocRun,
      progress: Number(progress),
    })),
  };
}

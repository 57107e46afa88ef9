import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * One blob per stored content (issue 11.3, API.md §12): documents and file-manager files record the
 * blob they read in `blob_key`, so a document created from a file shares the file's blob by
 * reference and a blob is deleted only when no row names it any more. Existing rows get the key they
 * were read from (`<kb id>/<location>`, `<parent id>/<location>`; mirror entries their document's).
 *
 * Document names become unique per KB (an index, after renaming the duplicates the same-name upload
 * race produced), so two uploads can never end up with one name.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('document').addColumn('blob_key', 'varchar(512)').execute();
  await db.schema.alterTable('file').addColumn('blob_key', 'varchar(512)').execute();
  await sql`update document set blob_key = kb_id || '/' || location where location <> ''`.execute(db);
  await sql`update file set blob_key = (
      select d.blob_key from file2document f2d join document d on d.id = f2d.document_id
      where f2d.file_id = file.id limit 1)
    where source_type = 'knowledgebase' and type <> 'folder'`.execute(db);
  await sql`update file set blob_key = parent_id || '/' || location
    where source_type <> 'knowledgebase' and type <> 'folder' and location <> ''`.execute(db);
  await db.schema.createIndex('document_blob_idx').on('document').column('blob_key').execute();
  await db.schema.createIndex('file_blob_idx').on('file').column('blob_key').execute();
  await db.schema
    .createIndex('file_parent_name_idx')
    .on('file')
    .columns(['parent_id', 'name', 'id'])
    .execute();
  // A folder's page by date or name from the index alone (covering: the page's ids are read
  // without touching the rows it skips; file/list then fetches the page's rows by id).
  await db.schema
    .createIndex('file_parent_time_idx')
    .on('file')
    .columns(['parent_id', 'create_time', 'id'])
    .execute();

  await renameDuplicateDocuments(db);
  await db.schema
    .createIndex('document_kb_name_uq')
    .on('document')
    .columns(['kb_id', 'name'])
    .unique()
    .execute();
}

async function renameDuplicateDocuments(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ id: string; kb_id: string; name: string }>`
    select id, kb_id, name from document
    where (kb_id, name) in (select kb_id, name from document group by kb_id, name having count(*) > 1)
    order by kb_id, create_time, id`.execute(db);
  const seen = new Map<string, number>();
  for (const row of rows) {
    const key = `${row.kb_id}\u0000${row.name}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    if (n === 0) continue; // the first keeps its name
    const dot = row.name.lastIndexOf('.');
    const renamed =
      dot > 0 ? `${row.name.slice(0, dot)}(dup${n})${row.name.slice(dot)}` : `${row.name}(dup${n})`;
    await sql`update document set name = ${renamed} where id = ${row.id}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('document_kb_name_uq').ifExists().execute();
  await db.schema.dropIndex('file_parent_time_idx').ifExists().execute();
  await db.schema.dropIndex('file_parent_name_idx').ifExists().execute();
  await db.schema.dropIndex('file_blob_idx').ifExists().execute();
  await db.schema.dropIndex('document_blob_idx').ifExists().execute();
  await db.schema.alterTable('file').dropColumn('blob_key').execute();
  await db.schema.alterTable('document').dropColumn('blob_key').execute();
}

import type { Kysely } from 'kysely';
import { dialectOf, jsonType, withTimes } from '../schema-helpers.js';

/**
 * Knowledge-graph storage (API.md §19.10). `kb_graph` holds one KB's whole graph as graphology's
 * lossless export — entities, relations, community ids, PageRank and, on every node and edge, what each
 * document contributed (so adding a document merges only its part and deleting one removes exactly what
 * only it contributed) — plus the community reports and the KB's mind map. `kb_graph_doc` lists the
 * documents whose extraction is in the graph (the next run extracts only the others). The searchable
 * side (entity, relation and community-report records, embedded) lives in the chunk index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const d = dialectOf(db);
  await withTimes(
    db.schema
      .createTable('kb_graph')
      .addColumn('kb_id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('graph', jsonType(d))
      .addColumn('reports', jsonType(d))
      // Entity names per type, most central first (use_kg's asked-about types), small enough to read per query.
      .addColumn('type_index', jsonType(d))
      .addColumn('mind_map', jsonType(d))
      .addColumn('entity_num', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('relation_num', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('community_num', 'integer', (c) => c.notNull().defaultTo(0)),
  ).execute();
  await withTimes(
    db.schema
      .createTable('kb_graph_doc')
      .addColumn('kb_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('doc_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('chunk_num', 'integer', (c) => c.notNull().defaultTo(0))
      // Hash of the chunk ids extracted: a re-parsed document (other chunks) is extracted again.
      .addColumn('digest', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('mind_map', jsonType(d))
      .addPrimaryKeyConstraint('kb_graph_doc_pk', ['kb_id', 'doc_id']),
  ).execute();
  await db.schema.createIndex('kb_graph_doc_doc_idx').on('kb_graph_doc').column('doc_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('kb_graph_doc').ifExists().execute();
  await db.schema.dropTable('kb_graph').ifExists().execute();
}

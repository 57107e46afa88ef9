/** Builders shared by the search tests (not a test file itself). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChunkRecord } from './chunk-index.js';
import { SqliteChunkIndex, type SqliteIndexOptions } from './sqlite-index.js';

let seq = 0;

export function chunk(partial: Partial<ChunkRecord> & { content_with_weight: string }): ChunkRecord {
  seq++;
  return {
    id: partial.id ?? `c${seq.toString(16).padStart(15, '0')}`,
    doc_id: 'doc1',
    kb_id: 'kb1',
    tenant_id: 'tenant1',
    docnm_kwd: 'notes.txt',
    important_kwd: [],
    question_kwd: [],
    tag_kwd: [],
    tag_feas: {},
    img_id: '',
    positions: [],
    available_int: 1,
    create_time: 1_700_000_000_000 + seq,
    doc_type_kwd: null,
    mom_id: null,
    pagerank_fea: 0,
    vector: null,
    ...partial,
  };
}

/** A fresh index in a temp folder, removed by `close()`. */
export function tempIndex(options: SqliteIndexOptions = {}): {
  index: SqliteChunkIndex;
  dir: string;
  close: () => Promise<void>;
} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-index-'));
  const index = new SqliteChunkIndex(path.join(dir, 'index.sqlite'), null, null, options);
  return {
    index,
    dir,
    close: async () => {
      await index.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Unrelated filler chunks so that the test terms are rare (FTS5 idf is 0 for terms in > half the rows). */
export function fillers(n: number, kb = 'kb1', doc = 'filler'): ChunkRecord[] {
  const words = [
    'harbor',
    'violin',
    'granite',
    'meadow',
    'lantern',
    'copper',
    'orchard',
    'glacier',
    'saddle',
    'thimble',
  ];
  return Array.from({ length: n }, (_, i) =>
    chunk({
      kb_id: kb,
      doc_id: doc,
      docnm_kwd: 'filler.txt',
      content_with_weight: `${words[i % words.length]} ${words[(i * 3 + 1) % words.length]} ${words[(i * 7 + 2) % words.length]} record ${i}`,
    }),
  );
}

/**
 * Blobs shared by reference (API.md §12): a file-manager file and the documents created from it read
 * one blob, named in their `blob_key` column. A blob is deleted only when no document and no file
 * names it any more, so removing one user never breaks another.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';
import type { BlobStore } from './blob-store.js';

/** The blob a document reads (legacy rows without `blob_key`: `<kb id>/<location>`). */
export function documentBlobKey(doc: {
  kb_id: string;
  location: string;
  blob_key?: string | null;
}): string | null {
  if (doc.blob_key) return doc.blob_key;
  return doc.location ? `${doc.kb_id}/${doc.location}` : null;
}

/** The keys among `keys` that some document or file still names (batched lookups). */
async function keysInUse(db: Kysely<Database>, keys: string[]): Promise<Set<string>> {
  const used = new Set<string>();
  for (let i = 0; i < keys.length; i += 500) {
    const batch = keys.slice(i, i + 500);
    const docs = await db.selectFrom('document').select('blob_key').where('blob_key', 'in', batch).execute();
    const files = await db.selectFrom('file').select('blob_key').where('blob_key', 'in', batch).execute();
    for (const r of [...docs, ...files]) if (r.blob_key) used.add(r.blob_key);
  }
  return used;
}

/**
 * Deletes the blobs among `keys` that no row names any more. Call after the rows that named them
 * were deleted (committed), so a blob still in use is never removed. Deletions run a few at a time.
 */
export async function releaseBlobs(
  db: Kysely<Database>,
  blobs: BlobStore,
  keys: Iterable<string | null | undefined>,
): Promise<void> {
  const unique = [...new Set([...keys].filter((k): k is string => !!k))];
  const used = await keysInUse(db, unique);
  const unused = unique.filter((k) => !used.has(k));
  const PARALLEL = 16;
  for (let i = 0; i < unused.length; i += PARALLEL) {
    await Promise.all(unused.slice(i, i + PARALLEL).map((k) => blobs.delete(k)));
  }
}

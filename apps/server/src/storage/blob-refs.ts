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

/** How many documents and files still name `key`. */
export async function blobUsers(db: Kysely<Database>, key: string): Promise<number> {
  const docs = await db
    .selectFrom('document')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('blob_key', '=', key)
    .executeTakeFirst();
  const files = await db
    .selectFrom('file')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('blob_key', '=', key)
    .executeTakeFirst();
  return Number(docs?.n ?? 0) + Number(files?.n ?? 0);
}

/**
 * Deletes the blobs among `keys` that no row names any more. Call after the rows that named them
 * were deleted (committed), so a blob still in use is never removed.
 */
export async function releaseBlobs(
  db: Kysely<Database>,
  blobs: BlobStore,
  keys: Iterable<string | null | undefined>,
): Promise<void> {
  for (const key of new Set([...keys].filter((k): k is string => !!k))) {
    if ((await blobUsers(db, key)) === 0) await blobs.delete(key);
  }
}

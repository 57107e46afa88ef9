/**
 * `/api/v1/file/*`, `/api/v1/file2document/*` — the API-key twin of the file manager (API.md §17):
 * every route of API.md §12 again under `/api/v1`, with the same request and `data` schemas, taken
 * from the `/v1` entries so the two cannot drift. Only the credential (`Authorization: Bearer <api
 * key>`, §17's header rules) and the success envelope (`{code: 0, data}`, no message) differ.
 * Lectern's own additions (`file/import_s3`, `file/kb_files`) stay on the web API.
 */
import { fileContract } from './file.js';
import type { RouteContract } from './route.js';

/** `/v1/file/list` → `/api/v1/file/list`. */
type TwinPath<P extends string> = P extends `/v1/${infer Rest}` ? `/api/v1/${Rest}` : never;

/** A `/v1` entry as its API-key twin: the same entry, its path under `/api/v1`, `auth: 'apiKey'`. */
export type PublicTwin<R extends RouteContract> = Omit<R, 'path' | 'auth'> & {
  path: TwinPath<R['path']>;
  auth: 'apiKey';
};

/** The `/api/v1` path of a `/v1` route. */
export function publicTwinPath<P extends string>(path: P): TwinPath<P> {
  if (!path.startsWith('/v1/')) throw new Error(`not a /v1 route: ${path}`);
  return `/api${path}` as TwinPath<P>;
}

function twinOf<R extends RouteContract>(entry: R): PublicTwin<R> {
  return { ...entry, path: publicTwinPath(entry.path), auth: 'apiKey' };
}

export const publicFilesContract = {
  list: twinOf(fileContract.list),
  upload: twinOf(fileContract.upload),
  create: twinOf(fileContract.create),
  rm: twinOf(fileContract.rm),
  rename: twinOf(fileContract.rename),
  get: twinOf(fileContract.get),
  mv: twinOf(fileContract.mv),
  allParentFolder: twinOf(fileContract.allParentFolder),
  rootFolder: twinOf(fileContract.rootFolder),
  parentFolder: twinOf(fileContract.parentFolder),
  convert: twinOf(fileContract.convert),
  unlink: twinOf(fileContract.unlink),
};

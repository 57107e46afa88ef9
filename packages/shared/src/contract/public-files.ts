/**
 * `/api/v1/file/*`, `/api/v1/file2document/*` — the API-key twin of the file manager (API.md §17):
 * every route of API.md §12 again under `/api/v1`, with the same request and `data` schemas, taken
 * from the `/v1` entries so the two cannot drift. Only the credential (`Authorization: Bearer <api
 * key>`, §17's header rules) and the success envelope (`{code: 0, data}`, no message) differ.
 * Lectern's own additions (`file/import_s3`, `file/kb_files`) stay on the web API.
 */
import { fileContract } from './file.js';
import type { RouteContract } from './route.js';

/** The §12 routes that get a twin (keys of `fileContract`). */
export const PUBLIC_FILE_ROUTES = [
  'list',
  'upload',
  'create',
  'rm',
  'rename',
  'get',
  'mv',
  'allParentFolder',
  'rootFolder',
  'parentFolder',
  'convert',
  'unlink',
] as const;
type TwinnedName = (typeof PUBLIC_FILE_ROUTES)[number];

/** `/v1/file/list` → `/api/v1/file/list`. */
type TwinPath<P extends string> = P extends `/v1/${infer Rest}` ? `/api/v1/${Rest}` : never;

/** A `/v1` entry as its API-key twin: the same entry, its path under `/api/v1`, `auth: 'apiKey'`. */
export type PublicTwin<R extends RouteContract> = Omit<R, 'path' | 'auth'> & {
  path: TwinPath<R['path']>;
  auth: 'apiKey';
};

type PublicFileContract = { [K in TwinnedName]: PublicTwin<(typeof fileContract)[K]> };

/** The `/api/v1` path of a `/v1` route. */
export function publicTwinPath(path: string): string {
  if (!path.startsWith('/v1/')) throw new Error(`not a /v1 route: ${path}`);
  return `/api${path}`;
}

function twinOf<R extends RouteContract>(entry: R): PublicTwin<R> {
  return { ...entry, path: publicTwinPath(entry.path), auth: 'apiKey' } as PublicTwin<R>;
}

export const publicFilesContract = Object.fromEntries(
  PUBLIC_FILE_ROUTES.map((name) => [name, twinOf(fileContract[name])]),
) as PublicFileContract;

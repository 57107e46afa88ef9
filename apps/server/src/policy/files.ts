/**
 * Loaders of the file manager and of agents, for the modules that will serve them (API.md §12, §13).
 *
 * Files (§12.2): readable by the owner tenant, or by anyone who may use a KB the file is linked to
 * (file2document → document → knowledgebase); renaming, moving, removing and (re)linking stay with
 * the owner tenant. Refusal 109 "No authorization.".
 *
 * Canvases (§13): `loadCanvas` (or `authorizeCanvas` on a row already held) — unknown and unreadable
 * canvases answer 102 "canvas not found." on `get`/`getlistversion`/`getversion`, owner-only
 * operations 103 "Only owner of canvas …".
 */
import type { Kysely } from 'kysely';
import type { FileTable, Database } from '../db/types.js';
import type { KnowledgebaseTable } from '../db/tables/knowledge.js';
import type { UserCanvasRow } from '../db/tables/canvas.js';
import { refusals, type Refusal } from './refusals.js';
import { authorize, refusalFor, resource, type Action, type CanvasRef } from './rules.js';
import type { AccessScope } from './scope.js';
import type { Answers } from './knowledge.js';

type Reader = Kysely<Database>;

/** The live KBs a file is linked to (a file may be linked to several). */
export async function linkedKbsOf(db: Reader, fileId: string): Promise<KnowledgebaseTable[]> {
  return db
    .selectFrom('file2document as f2d')
    .innerJoin('document as d', 'd.id', 'f2d.document_id')
    .innerJoin('knowledgebase as kb', 'kb.id', 'd.kb_id')
    .selectAll('kb')
    .where('f2d.file_id', '=', fileId)
    .where('kb.status', '=', '1')
    .execute();
}

/**
 * A file the caller may `action`. Unknown id: `missing` (default 102 "File not found!"); not
 * allowed: `refused` (default 109). KB links are only looked up when ownership does not decide.
 */
export async function loadFile(
  db: Reader,
  scope: AccessScope,
  fileId: string,
  action: Action,
  answers: Answers = {},
): Promise<FileTable> {
  const file = await db.selectFrom('file').selectAll().where('id', '=', fileId).executeTakeFirst();
  if (!file) throw (answers.missing ?? refusals.fileNotFound)();
  const owned = file.tenant_id === scope.userId;
  const linked = owned || action === 'manage' ? [] : await linkedKbsOf(db, file.id);
  authorize(scope, action, resource.file(file, linked), answers.refused);
  return file;
}

/**
 * Checks a canvas row the agent module loaded (undefined = unknown id): read → 102 "canvas not
 * found." unless the caller may read it; manage → 103 "Only owner of canvas …". A route naming
 * another answer passes `refusal`.
 */
export function authorizeCanvas<T extends CanvasRef>(
  scope: AccessScope,
  action: Action,
  canvas: T | null | undefined,
  refusal?: Refusal,
): T {
  if (!canvas) throw refusal ? refusal() : refusalFor('canvas', action);
  authorize(scope, action, resource.canvas(canvas), refusal);
  return canvas;
}

/**
 * Loads a canvas and checks it in one call: unknown or unreadable → 102 "canvas not found.",
 * `manage` by someone other than the owner tenant → 103 "Only owner of canvas …" (or `refusal`).
 */
export async function loadCanvas(
  db: Reader,
  scope: AccessScope,
  canvasId: string | null | undefined,
  action: Action,
  refusal?: Refusal,
): Promise<UserCanvasRow> {
  const row = canvasId
    ? await db.selectFrom('user_canvas').selectAll().where('id', '=', canvasId).executeTakeFirst()
    : undefined;
  return authorizeCanvas(scope, action, row, refusal);
}

/**
 * The file manager's routes (API.md §12): validate with the contract, ask the policy module through
 * the service's loaders, answer through the presenter. Upload lives in a multipart scope with the
 * upload limits (SPEC §9).
 *
 * The same definitions are mounted twice: on the web API (`/v1`, session or API key through the auth
 * hook) and as the public API's file twin (`/api/v1`, API.md §17) inside the public API's key check,
 * where they are registered public and answer `{code: 0, data}`.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import { contract } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { errors, ok } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { loadFile } from '../../policy/index.js';
import { readUploadForm } from '../document/intake.js';
import { listQueryOf } from '../kb/paging.js';
import { extensionOf } from '../kb/naming.js';
import { rootFolderOf } from './kb-folder.js';
import { linkFiles } from './link.js';
import { moveEntries } from './move.js';
import { presentFile } from './presenter.js';
import { removeEntries, unlinkFiles } from './remove.js';
import { sendUserContent } from '../../http/user-content.js';
import { sendDocxPreview } from '../../http/docx-preview.js';
import * as files from './service.js';
import { uploadFiles } from './upload.js';
import { importFromS3 } from './s3-import.js';
import { streamS3Import } from './s3-import-stream.js';
import { kbLinkedFiles } from './kb-files.js';

const c = contract.file;

/** Where the file manager's routes are mounted. */
export interface FileRoutesMount {
  /** `/v1` (web API) or `/api/v1` (the API-key twin). */
  prefix: '/v1' | '/api/v1';
  /** Options of every route (the twin: `config.public`, its preHandler checks the key). */
  options: RouteShorthandOptions;
  /** The success envelope of the mount. */
  answer: (data: unknown) => object;
  /** Lectern's additions beyond API.md §12 (S3 import, a KB's files): web API only. */
  additions: boolean;
}

export const WEB_FILE_ROUTES: FileRoutesMount = { prefix: '/v1', options: {}, answer: ok, additions: true };

export async function fileManagerRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  mount: FileRoutesMount = WEB_FILE_ROUTES,
): Promise<void> {
  const { prefix, options: o, answer } = mount;
  const callerOf = (req: Parameters<typeof authOf>[0]) => files.callerOf(ctx, authOf(req).user);

  app.get(`${prefix}/file/list`, o, async (req) => {
    const q = validate(c.list.query, req.query);
    const list = listQueryOf(q, files.FILE_ORDER_COLUMNS);
    const {
      total,
      files: rows,
      parent,
    } = await files.listFolder(ctx, await callerOf(req), q.parent_id, list);
    return answer({ total, files: rows, parent_folder: presentFile(parent) });
  });

  app.post(`${prefix}/file/create`, o, async (req) => {
    const body = validate(c.create.body, req.body);
    return answer(presentFile(await files.createEntry(ctx, await callerOf(req), body)));
  });

  app.post(`${prefix}/file/rm`, o, async (req) => {
    const body = validate(c.rm.body, req.body);
    await removeEntries(ctx, await callerOf(req), body.file_ids);
    return answer(true);
  });

  app.post(`${prefix}/file/rename`, o, async (req) => {
    const body = validate(c.rename.body, req.body);
    await files.renameEntry(ctx, await callerOf(req), body.file_id, body.name);
    return answer(true);
  });

  app.post(`${prefix}/file/mv`, o, async (req) => {
    const body = validate(c.mv.body, req.body);
    await moveEntries(ctx, await callerOf(req), body.src_file_ids, body.dest_file_id);
    return answer(true);
  });

  app.get<{ Params: { file_id: string } }>(`${prefix}/file/get/:file_id`, o, async (req, reply) => {
    const caller = await callerOf(req);
    const file = await loadFile(ctx.db.kysely, caller.scope, req.params.file_id, 'read', {
      missing: () => errors.data('Document not found!'),
    });
    if (file.type === 'folder') throw errors.data('Document not found!');
    const bytes = file.blob_key ? await ctx.blobs.get(file.blob_key) : Buffer.alloc(0);
    if (!bytes) throw errors.data('Document not found!');
    return sendUserContent(reply, bytes, { ext: extensionOf(file.name), fileName: file.name });
  });

  app.get(`${prefix}/file/all_parent_folder`, o, async (req) => {
    const { file_id } = validate(c.allParentFolder.query, req.query);
    const chain = await files.parentChain(ctx, await callerOf(req), file_id);
    return answer({ parent_folders: chain.map(presentFile) });
  });

  app.get(`${prefix}/file/root_folder`, o, async (req) => {
    return answer({ root_folder: presentFile(await rootFolderOf(ctx.db.kysely, authOf(req).user.id)) });
  });

  app.get(`${prefix}/file/parent_folder`, o, async (req) => {
    const { file_id } = validate(c.parentFolder.query, req.query);
    return answer({ parent_folder: presentFile(await files.parentOf(ctx, await callerOf(req), file_id)) });
  });

  if (mount.additions) {
    app.get<{ Params: { file_id: string } }>(`${prefix}/file/preview/:file_id`, o, async (req, reply) => {
      const caller = await callerOf(req);
      const file = await loadFile(ctx.db.kysely, caller.scope, req.params.file_id, 'read', {
        missing: () => errors.data('Document not found!'),
      });
      const bytes = file.type !== 'folder' && file.blob_key ? await ctx.blobs.get(file.blob_key) : null;
      if (!bytes) throw errors.data('Document not found!');
      return sendDocxPreview(reply, bytes, extensionOf(file.name), file.name);
    });

    app.post(`${prefix}/file/import_s3`, o, async (req, reply) => {
      const body = validate(c.importS3.body, req.body);
      const caller = await callerOf(req);
      if (body.stream === true) return streamS3Import(ctx, caller, body, reply);
      const { files: stored, skipped } = await importFromS3(ctx, caller, body);
      return answer({ files: stored.map(presentFile), skipped });
    });

    app.get(`${prefix}/file/kb_files`, o, async (req) => {
      const q = validate(c.kbFiles.query, req.query);
      return answer(await kbLinkedFiles(ctx, await callerOf(req), q.kb_id, listQueryOf(q, [])));
    });
  }

  app.post(`${prefix}/file2document/convert`, o, async (req) => {
    const body = validate(c.convert.body, req.body);
    return answer(await linkFiles(ctx, await callerOf(req), body.file_ids, body.kb_ids));
  });

  app.post(`${prefix}/file2document/rm`, o, async (req) => {
    const body = validate(c.unlink.body, req.body);
    await unlinkFiles(ctx, await callerOf(req), body.file_ids);
    return answer(true);
  });

  await app.register(async (scope) => {
    await scope.register(multipart, {
      // Upload names may carry a relative path (`a/b/c.txt`), checked by uploadPathOf.
      preservePath: true,
      limits: {
        fileSize: ctx.config.maxFileBytes,
        files: ctx.config.maxFilesPerBatch,
        fields: 50,
        fieldSize: 1024 * 1024,
        parts: ctx.config.maxFilesPerBatch + 50,
      },
    });
    scope.post(`${prefix}/file/upload`, o, async (req) => {
      if (!req.isMultipart()) throw errors.argument('No file part!');
      const form = await readUploadForm(req, ctx);
      try {
        const stored = await uploadFiles(
          ctx,
          await callerOf(req),
          form.fields.parent_id || undefined,
          form.files,
        );
        return answer(stored.map(presentFile));
      } finally {
        await form.cleanup();
      }
    });
  });
}

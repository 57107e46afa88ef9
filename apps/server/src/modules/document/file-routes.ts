/**
 * The multipart routes of the document area (registered in a scope with @fastify/multipart and the
 * upload limits): upload, web_crawl (a fetched page stored as a document) and parse (plain text).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RetCode } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { ApiError, errors, ok } from '../../http/envelope.js';
import { asObject } from '../../http/validate.js';
import { accessScopeOf, loadKb, refusals } from '../../policy/index.js';
import { isParseError } from '../../ingest/errors.js';
import { WorkerJobError } from '../../util/worker-pool.js';
import { extensionOf, FILE_NAME_LIMIT_BYTES, sanitizeFileName, utf8Bytes } from '../kb/naming.js';
import { docTypeOf } from './file-kind.js';
import { readTmp, readUploadForm, refuseUnusableFiles, type UploadForm } from './intake.js';
import { presentDocument } from './presenter.js';
import { BAD_FORMAT, storeUploads } from './upload.js';
import { isOutboundError, outboundPolicyOf } from '../../net/index.js';
import { fetchUrl, isHttpUrl } from './web-fetch.js';

const FETCH_TIMEOUT_MS = 60_000;

async function formOf(req: FastifyRequest, ctx: AppContext): Promise<UploadForm> {
  if (!req.isMultipart()) {
    const fields = Object.fromEntries(
      Object.entries(asObject(req.body)).filter(([, v]) => typeof v === 'string') as Array<[string, string]>,
    );
    return { fields, files: [], cleanup: async () => undefined };
  }
  return readUploadForm(req, ctx);
}

/** The KB named by a form, usable by the caller: 100 when unknown, 109 when not theirs. */
async function formKb(ctx: AppContext, req: FastifyRequest, kbId: string) {
  const db = ctx.db.kysely;
  return loadKb(db, await accessScopeOf(db, authOf(req).user.id), kbId, 'read', {
    missing: refusals.datasetMissingException,
  });
}

/** Extension for fetched bytes: from the served file name, the content type, or the URL path. */
function extensionFor(contentType: string, fileName: string | null, url: string): string {
  if (fileName && extensionOf(fileName)) return extensionOf(fileName);
  const ct = contentType.split(';')[0].trim().toLowerCase();
  const byType: Record<string, string> = {
    'text/html': 'html',
    'application/xhtml+xml': 'html',
    'application/pdf': 'pdf',
    'text/plain': 'txt',
    'text/markdown': 'md',
    'text/csv': 'csv',
    'application/json': 'json',
    'image/png': 'png',
    'image/jpeg': 'jpg',
  };
  if (byType[ct]) return byType[ct];
  return extensionOf(new URL(url).pathname);
}

async function fetchOrFail(ctx: AppContext, url: string) {
  try {
    const page = await fetchUrl(url, {
      policy: outboundPolicyOf(ctx.config),
      maxBytes: ctx.config.maxFileBytes,
      timeoutMs: FETCH_TIMEOUT_MS,
    });
    if (page.status < 200 || page.status >= 300) throw new Error(`HTTP ${page.status}`);
    return page;
  } catch (err) {
    if (isOutboundError(err) && err.refused) throw errors.argument(err.message);
    throw errors.exception('Download failure.');
  }
}

export async function fileRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/v1/document/upload', async (req) => {
    if (!req.isMultipart()) throw errors.argument('Lack of "KB ID"');
    const form = await readUploadForm(req, ctx);
    try {
      const kbId = form.fields.kb_id;
      if (!kbId) throw errors.argument('Lack of "KB ID"');
      if (form.files.length === 0) throw errors.argument('No file part!');
      refuseUnusableFiles(form.files);
      const kb = await formKb(ctx, req, kbId);
      const stored = await storeUploads(
        ctx,
        authOf(req).user,
        kb,
        form.files.map((f) => ({ filename: f.filename, load: () => readTmp(f) })),
      );
      const data = stored.docs.map(presentDocument);
      if (stored.docs.length === 0 && stored.errors.length > 0 && stored.badFormat === stored.errors.length) {
        throw new ApiError(RetCode.DATA_ERROR, BAD_FORMAT, data);
      }
      if (stored.errors.length > 0) throw new ApiError(RetCode.SERVER_ERROR, stored.errors.join('\n'), data);
      return ok(data);
    } finally {
      await form.cleanup();
    }
  });

  app.post('/v1/document/web_crawl', async (req) => {
    const form = await formOf(req, ctx);
    await form.cleanup();
    const { kb_id: kbId, name, url } = form.fields;
    if (!kbId) throw errors.argument('Lack of "KB ID"');
    if (!name || sanitizeFileName(name) === '')
      throw errors.argument('required argument are missing: name; ');
    if (!isHttpUrl(url)) throw errors.argument('The URL format is invalid');
    const tooLong = (fileName: string) => utf8Bytes(fileName) > FILE_NAME_LIMIT_BYTES;
    // The stored name is `<name>.<ext>`: refuse what cannot fit before fetching anything.
    if (tooLong(`${sanitizeFileName(name)}.pdf`))
      throw errors.argument('File name must be 255 bytes or less.');
    const kb = await formKb(ctx, req, kbId);
    const page = await fetchOrFail(ctx, url);
    const ext = extensionFor(page.contentType, page.fileName, page.url);
    if (docTypeOf(ext) === 'other') throw errors.exception('Download failure.');
    if (tooLong(`${sanitizeFileName(name)}.${ext}`))
      throw errors.argument('File name must be 255 bytes or less.');
    const stored = await storeUploads(
      ctx,
      authOf(req).user,
      kb,
      [{ filename: `${sanitizeFileName(name)}.${ext}`, load: async () => page.body }],
      'web_crawl',
    );
    if (stored.docs.length === 0)
      throw errors.exception(stored.errors[0]?.replace(/^[^:]*: /, '') ?? 'Download failure.');
    return ok(true);
  });

  app.post('/v1/document/parse', async (req) => {
    const form = await formOf(req, ctx);
    try {
      const pool = ctx.parsePool;
      const textOf = (bytes: Buffer, fileName: string) =>
        pool
          .run<string>('text', { bytes, ext: extensionOf(fileName), fileName }, { timeoutMs: 300_000 })
          .catch((err: unknown) => {
            if (isParseError(err) || err instanceof WorkerJobError)
              throw errors.exception(`${fileName}: ${(err as Error).message}`);
            throw err;
          });
      const url = form.fields.url;
      if (url) {
        if (!isHttpUrl(url)) throw errors.argument('The URL format is invalid');
        const page = await fetchOrFail(ctx, url);
        const ext = extensionFor(page.contentType, page.fileName, page.url);
        if (!ext || docTypeOf(ext) === 'other') throw errors.argument("Can't not identify downloaded file");
        return ok(await textOf(page.body, page.fileName ?? `download.${ext}`));
      }
      if (form.files.length === 0) throw errors.argument('No file part!');
      const texts: string[] = [];
      for (const f of form.files) texts.push(await textOf(await readTmp(f), sanitizeFileName(f.filename)));
      return ok(texts.join('\n\n'));
    } finally {
      await form.cleanup();
    }
  });
}

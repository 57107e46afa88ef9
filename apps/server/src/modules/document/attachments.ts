/**
 * Attachments (API.md §6): `document/upload_info` stores a file (uploaded, or fetched from a URL
 * through the outbound guard) for the caller and answers its descriptor; `document/download/<id>`
 * reads the bytes back for the same user only. Bytes live in the blob store under the user's
 * bucket, the descriptor in the key-value table.
 */
import type { FastifyInstance } from 'fastify';
import { contract, type Attachment } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { errors, ok } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { isOutboundError, outboundPolicyOf } from '../../net/index.js';
import { newId } from '../../util/ids.js';
import { extensionOf, sanitizeFileName } from '../kb/naming.js';
import { readTmp, readUploadForm } from './intake.js';
import { contentTypeOf, sendUserContent } from '../../http/user-content.js';
import { fetchUrl, isHttpUrl } from './web-fetch.js';

const c = contract.document;
const kvKey = (id: string) => `attachment:${id}`;
const blobKey = (userId: string, id: string) => `${userId}/attachment_${id}`;

async function store(ctx: AppContext, userId: string, name: string, bytes: Buffer): Promise<Attachment> {
  const id = newId();
  const extension = extensionOf(name);
  const descriptor: Attachment = {
    id,
    name,
    size: bytes.length,
    extension,
    mime_type: contentTypeOf(extension),
    created_by: userId,
    created_at: Date.now(),
    preview_url: `/v1/document/download/${id}?ext=${encodeURIComponent(extension)}`,
  };
  await ctx.blobs.put(blobKey(userId, id), bytes);
  await ctx.db.kysely
    .insertInto('kv')
    .values({ key: kvKey(id), value: JSON.stringify(descriptor), update_time: descriptor.created_at })
    .execute();
  return descriptor;
}

export async function attachmentRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/v1/document/upload_info', async (req) => {
    const user = authOf(req).user;
    const { url } = validate(c.uploadInfo.query, req.query);
    if (!req.isMultipart()) {
      if (!url) throw errors.argument('No file part!');
      if (!isHttpUrl(url)) throw errors.argument('The URL format is invalid');
      try {
        const page = await fetchUrl(url, {
          policy: outboundPolicyOf(ctx.config),
          maxBytes: ctx.config.maxFileBytes,
          timeoutMs: 60_000,
        });
        if (page.status < 200 || page.status >= 300) throw new Error(`HTTP ${page.status}`);
        const name =
          sanitizeFileName(page.fileName ?? new URL(page.url).pathname.split('/').pop() ?? '') || 'download';
        return ok(await store(ctx, user.id, name, page.body));
      } catch (err) {
        if (isOutboundError(err) && err.refused) throw errors.argument(err.message);
        throw errors.exception('Download failure.');
      }
    }
    const form = await readUploadForm(req, ctx);
    try {
      const file = form.files[0];
      if (!file) throw errors.argument('No file part!');
      if (file.filename === '') throw errors.argument('No file selected!');
      return ok(await store(ctx, user.id, sanitizeFileName(file.filename), await readTmp(file)));
    } finally {
      await form.cleanup();
    }
  });
}

/** `GET /v1/document/download/<attachment_id>` (outside the multipart scope). */
export async function attachmentDownloadRoute(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get<{ Params: { attachment_id: string } }>(
    '/v1/document/download/:attachment_id',
    async (req, reply) => {
      const user = authOf(req).user;
      const { ext } = validate(c.downloadAttachment.query, req.query);
      const row = await ctx.db.kysely
        .selectFrom('kv')
        .select('value')
        .where('key', '=', kvKey(req.params.attachment_id))
        .executeTakeFirst();
      const descriptor = row ? (JSON.parse(row.value) as Attachment) : null;
      // Another user's attachment answers as an unknown one.
      if (!descriptor || descriptor.created_by !== user.id) throw errors.data('Attachment not found!');
      const bytes = await ctx.blobs.get(blobKey(user.id, descriptor.id));
      if (!bytes) throw errors.data('Attachment not found!');
      const wanted = ext ?? descriptor.extension;
      const type = wanted === 'markdown' ? 'text/markdown; charset=utf-8' : contentTypeOf(wanted);
      return sendUserContent(reply, bytes, { ext: wanted, fileName: descriptor.name, contentType: type });
    },
  );
}

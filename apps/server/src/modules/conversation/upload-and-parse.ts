/**
 * Attachments in a conversation (API.md §6/§10 `upload_and_parse`): the files go into the first
 * knowledge base of the conversation's assistant as ordinary documents, are parsed through the task
 * queue, and the answer is their ids once parsing settled — the client then sends them as the
 * message's `doc_ids`, which restricts retrieval to them. Also the legacy `DELETE /v1/api/document`.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contract, RetCode } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import type { UserTable } from '../../db/types.js';
import { authOf } from '../../http/auth.js';
import { ApiError, errors, ok } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { accessScopeOf, ownKbs } from '../../policy/index.js';
import { readTmp, readUploadForm, refuseUnusableFiles } from '../document/intake.js';
import { removeDocuments } from '../document/remove.js';
import { runDocs } from '../document/service.js';
import { storeUploads } from '../document/upload.js';
import type { KnowledgebaseTable } from '../../db/tables/knowledge.js';
import { apiKeyOf, keySession } from '../api/service.js';
import { dialogConfigOf, type DialogRow } from '../dialog/service.js';
import { loadConversation } from './service.js';

/** How long an upload waits for its documents to be parsed. */
const PARSE_WAIT_MS = 300_000;

async function targetKb(ctx: AppContext, dialog: DialogRow): Promise<KnowledgebaseTable> {
  for (const id of dialogConfigOf(dialog).kb_ids) {
    const kb = await ctx.db.kysely
      .selectFrom('knowledgebase')
      .selectAll()
      .where('id', '=', id)
      .where('status', '=', '1')
      .executeTakeFirst();
    if (kb) return kb;
  }
  throw errors.data(
    'The assistant has no dataset to keep attachments in. Please link a dataset to it first.',
  );
}

/** Polls until no document is queued or running; throws when it takes longer than the limit. */
async function waitParsed(ctx: AppContext, docIds: string[], timeoutMs = PARSE_WAIT_MS) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await ctx.db.kysely
      .selectFrom('document')
      .select(['id', 'name', 'run', 'progress_msg'])
      .where('id', 'in', docIds)
      .execute();
    if (rows.every((r) => r.run !== '1')) return rows;
    if (Date.now() > deadline)
      throw new ApiError(RetCode.SERVER_ERROR, 'Parsing the attachments took too long.', docIds);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function uploadAndParse(
  ctx: AppContext,
  req: FastifyRequest,
  resolve: (conversationId: string) => Promise<{ dialog: DialogRow; owner: UserTable }>,
) {
  if (!req.isMultipart()) throw errors.argument('No file part!');
  const form = await readUploadForm(req, ctx);
  try {
    if (form.files.length === 0) throw errors.argument('No file part!');
    refuseUnusableFiles(form.files);
    const conversationId = form.fields.conversation_id;
    if (!conversationId) throw errors.argument('required argument are missing: conversation_id; ');
    const { dialog, owner } = await resolve(conversationId);
    const kb = await targetKb(ctx, dialog);
    const stored = await storeUploads(
      ctx,
      owner,
      kb,
      form.files.map((f) => ({ filename: f.filename, load: () => readTmp(f) })),
    );
    const ids = stored.docs.map((d) => d.id);
    if (ids.length > 0) {
      await runDocs(ctx, owner, { doc_ids: ids, run: '1' });
      const rows = await waitParsed(ctx, ids);
      for (const r of rows)
        if (r.run !== '3')
          stored.errors.push(`${r.name}: ${r.progress_msg.split('\n').pop() ?? 'parsing failed'}`);
    }
    if (stored.errors.length > 0) throw new ApiError(RetCode.SERVER_ERROR, stored.errors.join('\n'), ids);
    return ok(ids);
  } finally {
    await form.cleanup();
  }
}

async function tenantUser(ctx: AppContext, tenantId: string): Promise<UserTable> {
  const user = await ctx.db.kysely
    .selectFrom('user')
    .selectAll()
    .where('id', '=', tenantId)
    .executeTakeFirst();
  if (!user) throw errors.data('Tenant not found!');
  return user;
}

export async function uploadAndParseRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: {
        fileSize: ctx.config.maxFileBytes,
        files: ctx.config.maxFilesPerBatch,
        fields: 20,
        fieldSize: 64 * 1024,
        parts: ctx.config.maxFilesPerBatch + 20,
      },
    });

    scope.post('/v1/document/upload_and_parse', async (req) => {
      const user = authOf(req).user;
      return uploadAndParse(ctx, req, async (id) => ({
        dialog: (await loadConversation(ctx, user.id, id)).dialog,
        owner: user,
      }));
    });

    scope.post('/v1/api/document/upload_and_parse', { config: { public: true } }, async (req) => {
      const key = await apiKeyOf(ctx, req);
      return uploadAndParse(ctx, req, async (id) => {
        const { dialog } = await keySession(ctx, key, id, 'not-found');
        if (!dialog) throw errors.data('Dialog not found!');
        return { dialog, owner: await tenantUser(ctx, key.tenant_id) };
      });
    });
  });

  app.delete('/v1/api/document', { config: { public: true } }, async (req) => {
    const key = await apiKeyOf(ctx, req);
    const body = validate(contract.api.removeDocuments.body, req.body);
    const names = Array.isArray(body.doc_names)
      ? body.doc_names.filter((n): n is string => typeof n === 'string')
      : [];
    const ids = Array.isArray(body.doc_ids)
      ? body.doc_ids.filter((n): n is string => typeof n === 'string')
      : [];
    if (names.length === 0 && ids.length === 0) throw errors.data("Can't find doc_names or doc_ids");
    // Only documents in the key's tenant's own knowledge bases (the key acts as the tenant's owner).
    const scope = await accessScopeOf(ctx.db.kysely, key.tenant_id);
    const tenantDocs = ctx.db.kysely
      .selectFrom('document')
      .innerJoin('knowledgebase', 'knowledgebase.id', 'document.kb_id')
      .selectAll('document')
      .where(ownKbs(scope, { alias: 'knowledgebase' }));
    const byName = names.length > 0 ? await tenantDocs.where('document.name', 'in', names).execute() : [];
    const byId = ids.length > 0 ? await tenantDocs.where('document.id', 'in', ids).execute() : [];
    if (byName.length < new Set(names).size || byId.length < new Set(ids).size)
      throw errors.data('Document not found!');
    const docs = [...new Map([...byName, ...byId].map((d) => [d.id, d])).values()];
    const failures: string[] = [];
    for (const kbId of new Set(docs.map((d) => d.kb_id))) {
      const kb = await ctx.db.kysely
        .selectFrom('knowledgebase')
        .selectAll()
        .where('id', '=', kbId)
        .executeTakeFirstOrThrow();
      failures.push(
        ...(await removeDocuments(
          ctx,
          kb,
          docs.filter((d) => d.kb_id === kbId),
        )),
      );
    }
    if (failures.length > 0) throw new ApiError(RetCode.SERVER_ERROR, failures.join('\n'), false);
    return ok(true);
  });
}

/**
 * The public API `/api/v1` (API.md §17): a presentation layer over the `/v1` services, guarded by
 * the API-key check of `auth.ts` (the web auth hook skips these routes: they are registered public).
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { fileManagerRoutes, type FileRoutesMount } from '../file/routes.js';
import { agentRoutes } from './agents.js';
import { agentsOpenaiRoutes } from './agents-openai.js';
import { done, PUBLIC, publicApiAuth } from './auth.js';
import { botRoutes } from './bots.js';
import { chatRoutes } from './chats.js';
import { datasetRoutes } from './datasets.js';
import { docsRoutes } from './docs.js';
import { documentRoutes } from './documents.js';
import { miscRoutes } from './misc.js';
import { openaiRoutes } from './openai.js';
import { searchBotRoutes } from './searchbots.js';

/** The file manager's API-key twin (API.md §17 `/api/v1/file/*`): its own routes again, under the key check. */
const FILE_TWIN: FileRoutesMount = { prefix: '/api/v1', options: PUBLIC, answer: done, additions: false };

export async function publicApiRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  // The reference is public: outside the API-key scope.
  await docsRoutes(app);
  // The embed/share pages' bots: beta token, not an API key (API.md §1.4).
  await searchBotRoutes(app, ctx);
  await botRoutes(app, ctx);
  await app.register(async (scope) => {
    scope.addHook('preHandler', publicApiAuth(ctx));
    await datasetRoutes(scope, ctx);
    await chatRoutes(scope, ctx);
    await openaiRoutes(scope, ctx);
    await agentRoutes(scope, ctx);
    await agentsOpenaiRoutes(scope, ctx);
    await miscRoutes(scope, ctx);
    await fileManagerRoutes(scope, ctx, FILE_TWIN);
    await scope.register(async (uploads) => {
      await uploads.register(multipart, {
        limits: {
          fileSize: ctx.config.maxFileBytes,
          files: ctx.config.maxFilesPerBatch,
          fields: 50,
          parts: ctx.config.maxFilesPerBatch + 50,
        },
      });
      await documentRoutes(uploads, ctx);
    });
  });
}

import type { FastifyInstance } from 'fastify';
import type { ServerContext } from './context.js';
import { systemRoutes } from './system/routes.js';
import { userRoutes } from './user/routes.js';
import { chatAreaRoutes } from './conversation/plugin.js';
import { llmRoutes } from './llm/routes.js';
import { knowledgeRoutes } from './kb/plugin.js';
import { chunkRoutes } from './chunk/routes.js';
import { canvasRoutes } from './canvas/routes.js';
import { graphRoutes } from './graph/routes.js';
import { canvasToolRoutes } from './canvas-tools/routes.js';
import { fileManagerRoutes } from './file/routes.js';
import { tenantRoutes } from './tenant/routes.js';
import { publicApiRoutes } from './public-api/index.js';
import { mcpRoutes } from './mcp/routes.js';
import { langfuseRoutes } from './langfuse/routes.js';
import { searchAppRoutes } from './search-app/routes.js';

/** Every API area registers its routes here, one line each. */
export async function registerModules(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  await userRoutes(app, ctx);
  await systemRoutes(app, ctx);
  await chatAreaRoutes(app, ctx);
  await llmRoutes(app, ctx);
  await knowledgeRoutes(app, ctx);
  await chunkRoutes(app, ctx);
  await canvasRoutes(app, ctx);
  await graphRoutes(app, ctx);
  await canvasToolRoutes(app, ctx);
  await fileManagerRoutes(app, ctx);
  await tenantRoutes(app, ctx);
  await langfuseRoutes(app, ctx);
  await searchAppRoutes(app, ctx);
  await publicApiRoutes(app, ctx);
  await mcpRoutes(app, ctx);
}

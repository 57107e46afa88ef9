import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { apiRoutes } from '../api/routes.js';
import { dialogRoutes } from '../dialog/routes.js';
import { conversationRoutes } from './routes.js';
import { sequence2txtRoutes } from './sequence2txt.js';

/** The chat area: assistants (`/v1/dialog`), conversations (`/v1/conversation`), chat API (`/v1/api`). */
export async function chatAreaRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  await dialogRoutes(app, ctx);
  await conversationRoutes(app, ctx);
  await sequence2txtRoutes(app, ctx);
  await apiRoutes(app, ctx);
}

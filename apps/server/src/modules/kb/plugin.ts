import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { documentRoutes } from '../document/routes.js';
import { kbRoutes } from './routes.js';
import { kbSettingsRoutes } from './settings-routes.js';

/** Knowledge bases and their documents (API.md §5, §6). */
export async function knowledgeRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await kbRoutes(app, ctx);
  await kbSettingsRoutes(app, ctx);
  await documentRoutes(app, ctx);
}

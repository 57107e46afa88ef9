import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { documentRoutes } from '../document/routes.js';
import { chunkIndexOf } from './chunk-store.js';
import { kbRoutes } from './routes.js';

/** Knowledge bases and their documents (API.md §5, §6). */
export async function knowledgeRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Open the chunk index at start-up so its health probe reports from the first status call.
  await chunkIndexOf(ctx);
  await kbRoutes(app, ctx);
  await documentRoutes(app, ctx);
}

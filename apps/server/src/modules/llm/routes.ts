import type { FastifyInstance } from 'fastify';
import { contract } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import { asObject, validate } from '../../http/validate.js';
import { seedCatalogue } from '../../models/seed.js';
import { addLlm, setApiKey } from './keys.js';
import * as llms from './service.js';

const c = contract.llm;

/** /v1/llm (API.md §4). The caller's own tenant (id = user id) owns every tenant_llm row it touches. */
export async function llmRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await seedCatalogue(ctx);

  app.get('/v1/llm/factories', async () => ok(await llms.listFactories(ctx)));

  app.get('/v1/llm/list', async (req) => {
    const q = validate(c.list.query, req.query);
    return ok(await llms.listModels(ctx, authOf(req).user.id, q.model_type || undefined));
  });

  app.get('/v1/llm/my_llms', async (req) => {
    const q = validate(c.myLlms.query, req.query);
    return ok(
      await llms.myLlms(ctx, authOf(req).user.id, (q.include_details ?? 'false').toLowerCase() === 'true'),
    );
  });

  app.post('/v1/llm/set_api_key', async (req) => {
    const body = validate(c.setApiKey.body, req.body);
    return ok(await setApiKey(ctx, authOf(req).user.id, body, asObject(req.body)));
  });

  app.post('/v1/llm/add_llm', async (req) => {
    const body = validate(c.addLlm.body, req.body);
    return ok(await addLlm(ctx, authOf(req).user.id, body, asObject(req.body)));
  });

  app.post('/v1/llm/delete_llm', async (req) => {
    const body = validate(c.deleteLlm.body, req.body);
    await llms.deleteLlm(ctx, authOf(req).user.id, body.llm_factory, body.llm_name);
    return ok(true);
  });

  app.post('/v1/llm/enable_llm', async (req) => {
    const body = validate(c.enableLlm.body, req.body);
    await llms.enableLlm(ctx, authOf(req).user.id, body.llm_factory, body.llm_name, body.status ?? '1');
    return ok(true);
  });

  app.post('/v1/llm/delete_factory', async (req) => {
    const body = validate(c.deleteFactory.body, req.body);
    await llms.deleteFactory(ctx, authOf(req).user.id, body.llm_factory);
    return ok(true);
  });
}

import type { FastifyInstance } from 'fastify';
import { contract, RetCode } from '@lectern/shared';
import { testDbConnection } from '../../agent-tools/index.js';
import type { AppContext } from '../../context.js';
import { ApiError, errors, ok } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';

const c = contract.canvasTools;

/**
 * `/v1/canvas` routes of the agent tools (API.md §13). Login only: the test touches no stored record,
 * so there is nothing for the policy to authorize beyond the signed-in caller. The database host goes
 * through the outbound guard like every connection the server makes on a user's behalf.
 */
export async function canvasToolRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/v1/canvas/test_db_connect', async (req) => {
    const body = validate(c.testDbConnect.body, req.body);
    const port = Number(typeof body.port === 'string' ? body.port.trim() : body.port);
    if (typeof body.port === 'boolean' || !Number.isInteger(port) || port <= 0 || port > 65535)
      throw errors.exception('`port` must be an integer between 1 and 65535.');
    const outcome = await testDbConnection(ctx.config, {
      dbType: String(body.db_type).toLowerCase(),
      host: body.host,
      port,
      database: body.database,
      username: body.username,
      password: body.password,
    });
    if (outcome === 'unsupported') throw errors.argument('Unsupported database type.');
    if (outcome !== 'ok') throw new ApiError(RetCode.CONNECTION_ERROR, outcome);
    return ok('Database Connection Successful!' as const);
  });
}

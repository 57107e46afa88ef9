import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { RetCode } from '@lectern/shared';
import type { ServerContext } from '../modules/context.js';
import { authHook } from './auth.js';
import { installBodyLimits, TOO_LARGE_BODY } from './body-limits.js';
import { installContractCheck } from './contract-check.js';
import { rateLimitStoreOptions } from './rate-limit-store.js';
import { installIdempotency } from './idempotency.js';
import { installCors } from './cors.js';
import { requestLogFields } from './log-redact.js';
import { installSecurityHeaders } from './security-headers.js';
import { ApiError } from './envelope.js';
import { registerModules } from '../modules/index.js';

const API_PREFIXES = ['/v1/', '/api/'];

function isApiPath(url: string): boolean {
  return API_PREFIXES.some((p) => url.startsWith(p)) || url === '/v1' || url === '/api';
}

/** Builds the HTTP app: conventions of API.md §1 (envelope, codes, 401/404 bodies, limits, CORS). */
export async function buildApp(ctx: ServerContext): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      ctx.config.logLevel === 'silent'
        ? false
        : { level: ctx.config.logLevel, serializers: { req: requestLogFields } },
    bodyLimit: ctx.config.maxJsonBytes,
    routerOptions: { ignoreTrailingSlash: true },
    connectionTimeout: 600_000,
    requestTimeout: 600_000,
  });

  // JSON bodies: empty means {}; malformed is a clean 400 envelope, never a stack trace.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim().length === 0) return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ApiError(RetCode.ARGUMENT_ERROR, 'Malformed JSON in request body.', null, 400), undefined);
    }
  });
  // Clients that post without a content type still reach the handler with an empty body.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, _body, done) => done(null, {}));

  await installCors(app, ctx.config.corsOrigins);
  installSecurityHeaders(app);
  await app.register(rateLimit, {
    global: false,
    ...rateLimitStoreOptions(app, ctx.db, ctx.config.redisUrl),
  });

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      const body: Record<string, unknown> = { code: error.code, message: error.message };
      if (error.data !== undefined) body.data = error.data;
      return reply.status(error.httpStatus).send(body);
    }
    const fe = error as FastifyError;
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || fe.statusCode === 413) {
      return reply.status(413).send(TOO_LARGE_BODY);
    }
    if (fe.statusCode === 429) {
      return reply.status(429).send({
        code: RetCode.NOT_EFFECTIVE,
        message: 'Too many attempts, please try again later.',
        data: false,
      });
    }
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      return reply
        .status(400)
        .send({ code: RetCode.ARGUMENT_ERROR, message: 'Malformed request.', data: null });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(200).send({
      code: RetCode.EXCEPTION_ERROR,
      message: 'Something went wrong on the server. Please try again.',
      data: false,
    });
  });

  // Before the auth hook: an oversized body is refused whoever sends it, before it is read.
  installBodyLimits(app, {
    jsonBytes: ctx.config.maxJsonBytes,
    largeJsonBytes: ctx.config.maxLargeJsonBytes,
    uploadBytes: ctx.config.maxBodyBytes,
  });
  app.addHook('onRequest', authHook(ctx));
  installIdempotency(app, ctx.db, ctx.secrets);
  // Tests hold every answer against the contract; installed before any route so it sees them all.
  if (ctx.config.contractCheck) installContractCheck(app);

  await registerModules(app, ctx);

  const indexHtml = path.join(ctx.config.webDistDir, 'index.html');
  const hasWeb = fs.existsSync(indexHtml);
  if (hasWeb) {
    await app.register(fastifyStatic, { root: ctx.config.webDistDir, wildcard: false, index: false });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    if (!isApiPath(url) && hasWeb && (request.method === 'GET' || request.method === 'HEAD')) {
      // Single-page app: every browser route serves index.html.
      return reply.type('text/html').send(fs.createReadStream(indexHtml));
    }
    return reply
      .status(404)
      .send({ code: 404, message: `Not Found: ${url}`, data: null, error: 'Not Found' });
  });

  return app;
}

/**
 * The composition root: the one place that builds every port (database, blob store, chunk index,
 * task queue signal, parser pool, secrets, health probes) and the domain services on top of them,
 * once per process, and registers each task kind's handler. The tracing port (Langfuse, API.md §14)
 * is built here too and reaches chat and agent runs through the context. main.ts, the test harness
 * and the benchmarks all start the server through here.
 */
import type { Config } from './config.js';
import { closeContext, type AppContext } from './context.js';
import { createTenantMcpPorts, createToolComponents } from './agent-tools/index.js';
import { createAgentServices } from './agents/services.js';
import { agentRunTaskHandler } from './agents/run-task.js';
import { createChatServices } from './chat/bind.js';
import { openChunkIndex } from './chunk-index/open-index.js';
import { openDb, pingDb } from './db/connection.js';
import { checkSecretKey } from './db/key-check.js';
import { migrateToLatest } from './db/migrate.js';
import { HealthRegistry } from './health/registry.js';
import { outboundPolicyOf } from './net/index.js';
import { createParsePool } from './ingest/parse-pool.js';
import { graphragTaskHandler } from './graph/jobs/graphrag-task.js';
import { mindmapTaskHandler } from './graph/jobs/mindmap-task.js';
import { parseTaskHandler } from './ingest/tasks/parse-task.js';
import { raptorTaskHandler } from './raptor/raptor-task.js';
import type { ServerContext } from './modules/context.js';
import type { TaskHandlers } from './queue/handlers.js';
import { bridgeTaskSignal } from './queue/pg-wake.js';
import { TaskSignal } from './queue/signal.js';
import { startWorkerHost, type WorkerHost, type WorkerOptions } from './queue/worker-host.js';
import { Secrets } from './security/secrets.js';
import { createBlobStore } from './storage/create-blob-store.js';
import { createLangfuseTracing } from './tracing/langfuse.js';

/** Opens the database (migrated), blobs, chunk index, parser pool and queue signal; registers health probes. */
async function createPorts(config: Config): Promise<AppContext> {
  outboundPolicyOf(config); // refuses a malformed LECTERN_SSRF_ALLOW before anything opens
  const db = openDb(config.databaseUrl, config.dataDir);
  const onClose: AppContext['onClose'] = [() => db.close()];
  const secrets = new Secrets(config.secretKey);
  try {
    await migrateToLatest(db, { secrets });
    await checkSecretKey(db, secrets.mac('lectern:secret-key-fingerprint'));
  } catch (err) {
    await closeContext({ onClose });
    throw err;
  }
  const blobs = createBlobStore(config);
  const health = new HealthRegistry();
  health.register('database', async () => {
    await pingDb(db);
    return { database: db.dialect === 'postgres' ? 'postgresql' : 'sqlite' };
  });
  health.register('storage', async () => {
    await blobs.health();
    return { storage: blobs.kind };
  });
  // The task queue lives in the metadata DB (rows with leases); report its depth.
  health.register('queue', async () => {
    const row = await db.kysely
      .selectFrom('task')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('progress', '>=', 0)
      .where('progress', '<', 1)
      .executeTakeFirst();
    return { queue: 'database', pending: Number(row?.n ?? 0) };
  });
  let chunkIndex: AppContext['chunkIndex'];
  try {
    chunkIndex = await openChunkIndex(config, health, onClose);
  } catch (err) {
    await closeContext({ onClose });
    throw err;
  }
  const parsePool = createParsePool(config);
  onClose.push(() => parsePool.close());
  const queue = new TaskSignal();
  if (db.dialect === 'postgres') {
    // Processes sharing this database wake each other's workers (LISTEN/NOTIFY; polling stays).
    const wake = bridgeTaskSignal(queue, db, config.databaseUrl!);
    await wake.ready;
    onClose.unshift(() => wake.close());
  }
  const tracing = createLangfuseTracing({
    db,
    secrets,
    policy: outboundPolicyOf(config),
    warn: config.logLevel === 'silent' ? () => undefined : (m) => console.warn(m),
  });
  // Registered after the database: closed before it, so the last batches still go out.
  onClose.push(() => tracing.close());
  return {
    config,
    db,
    secrets,
    blobs,
    health,
    chunkIndex,
    parsePool,
    queue,
    tracing,
    onClose,
  };
}

/** The agent services: tool components and the MCP client of each tenant's stored servers. */
function agentServicesOf(ctx: AppContext) {
  const mcp = createTenantMcpPorts(ctx);
  ctx.onClose.push(() => mcp.close());
  return createAgentServices(ctx, { tools: createToolComponents(ctx), mcpFor: mcp.forRun });
}

/** Everything a server process needs: the ports and the domain services built on them. */
export async function createRoot(config: Config): Promise<ServerContext> {
  const ctx = await createPorts(config);
  const agents = agentServicesOf(ctx);
  ctx.onClose.push(() => agents.runs.cancelAll());
  return { ...ctx, chat: createChatServices(ctx), agents };
}

export async function closeRoot(root: Pick<AppContext, 'onClose'>): Promise<void> {
  await closeContext(root);
}

/** Every task kind this build can run, with its handler. */
export function taskHandlers(ctx: AppContext | ServerContext): TaskHandlers {
  const handlers: TaskHandlers = {
    parse: parseTaskHandler(ctx),
    graphrag: graphragTaskHandler(ctx),
    raptor: raptorTaskHandler(ctx),
    mindmap: mindmapTaskHandler(ctx),
  };
  // Agent runs need the process's agent services (tools, MCP); a bare AppContext gets the defaults.
  const agents = 'agents' in ctx ? ctx.agents : agentServicesOf(ctx);
  handlers.agent_run = agentRunTaskHandler(ctx, agents);
  return handlers;
}

/** Starts this process's task workers over every registered kind. */
export function startTaskWorkers(
  ctx: AppContext | ServerContext,
  options: WorkerOptions = {},
): Promise<WorkerHost> {
  return startWorkerHost(ctx, taskHandlers(ctx), options);
}

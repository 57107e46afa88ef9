import path from 'node:path';
import { runMigrateIndexCommand } from './cli/migrate-index.js';
import { runPythonSnapshotCommand } from './cli/python-snapshot.js';
import { loadConfig } from './config.js';
import { buildApp } from './http/app.js';
import { closeRoot, createRoot, startTaskWorkers } from './root.js';
import { startSharedSandbox } from './sandbox/index.js';

/** Starts the roles this process was asked for (`LECTERN_ROLE` or `--role api|worker|all`). */
async function main(): Promise<void> {
  const roleArg = process.argv.find((a) => a.startsWith('--role='))?.split('=')[1];
  const config = loadConfig(roleArg ? { ...process.env, LECTERN_ROLE: roleArg } : process.env);
  const started = performance.now();
  const ctx = await createRoot(config);
  const stops: Array<() => Promise<void>> = [];

  if (config.role === 'api' || config.role === 'all') {
    const app = await buildApp(ctx);
    await app.listen({ port: config.port, host: config.host });
    stops.push(() => app.close());
    const shown = config.host === '0.0.0.0' ? 'localhost' : config.host;
    console.log(
      `Lectern listening on http://${shown}:${config.port} (${ctx.db.dialect}, data in ${config.dataDir}) ` +
        `ready in ${Math.round(performance.now() - started)} ms`,
    );
  }
  if (config.role === 'worker' || config.role === 'all') {
    const host = await startTaskWorkers(ctx);
    stops.push(() => host.stop());
  }
  // Agent runs (API and worker roles) use CodeExec: its Python interpreter loads in the background now.
  startSharedSandbox({
    cacheDir: path.join(config.dataDir, 'cache', 'sandbox'),
    warmPython: config.codeExecPythonWarmup,
    log: config.logLevel === 'silent' ? undefined : (m) => console.log(m),
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Lectern stopping (${signal})`);
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await closeRoot(ctx);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

const command = process.argv.slice(2).find((a) => !a.startsWith('-'));
const run =
  command === 'migrate-index'
    ? runMigrateIndexCommand(process.argv, process.env).then((code) => process.exit(code))
    : command === 'prepare-python-snapshot'
      ? runPythonSnapshotCommand(process.argv).then((code) => process.exit(code))
      : main();
run.catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

// `npm test`: the whole suite.
//   1. unit + integration tests (vitest) on the embedded SQLite default;
//   2. the server's API suite again on PostgreSQL when one is reachable (TEST_DATABASE_URL,
//      default postgres://postgres@127.0.0.1:5432/postgres);
//   3. browser tests (Playwright + Debian chromium at /usr/bin/chromium) against a built app.
// Each runner writes JSON; the last line is the plain summary "tests: N passed, N failed".
// Flags: --only unit|pg|e2e (repeatable) to run a part.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, '.tmp/test-results');
fs.mkdirSync(outDir, { recursive: true });
const args = process.argv.slice(2);
const only = args.flatMap((a, i) => (a === '--only' ? [args[i + 1]] : []));
const wants = (part) => only.length === 0 || only.includes(part);
const vitestBin = path.join(root, 'node_modules/vitest/vitest.mjs');
const pgUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const totals = { passed: 0, failed: 0, skipped: 0 };

function runVitest(name, extraArgs, env = {}) {
  const out = path.join(outDir, `${name}.json`);
  fs.rmSync(out, { force: true });
  console.log(`\n=== ${name} ===`);
  const res = spawnSync(
    process.execPath,
    [vitestBin, 'run', ...extraArgs, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
    { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } },
  );
  if (!fs.existsSync(out)) {
    console.log(`${name}: the runner produced no report (exit ${res.status})`);
    totals.failed += 1;
    return;
  }
  const report = JSON.parse(fs.readFileSync(out, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  // A suite that failed to load counts as a failure even when it reported no test.
  const brokenFiles = report.testResults.filter(
    (f) => f.status === 'failed' && f.assertionResults.length === 0,
  );
  totals.failed += brokenFiles.length;
  if (res.status !== 0 && report.numFailedTests === 0 && brokenFiles.length === 0) totals.failed += 1;
}

function reachable(url) {
  return new Promise((resolve) => {
    const u = new URL(url);
    const socket = net.connect({ host: u.hostname, port: Number(u.port || 5432) });
    socket.setTimeout(2000);
    socket.on('connect', () => (socket.destroy(), resolve(true)));
    socket.on('error', () => resolve(false));
    socket.on('timeout', () => (socket.destroy(), resolve(false)));
  });
}

if (wants('unit'))
  runVitest('sqlite', [
    '--project',
    'tooling',
    '--project',
    'shared',
    '--project',
    'agent-core',
    '--project',
    'server',
    '--project',
    'web',
  ]);

if (wants('pg')) {
  if (await reachable(pgUrl)) {
    // The API suite (everything that touches the metadata database, the chunk index and blobs — on
    // PostgreSQL the chunk index is pgvector + tsvector tables, and the chunk-index contract compares
    // it with the SQLite index); pure parser/tokenizer tests do not depend on the database and ran in
    // the first pass.
    runVitest(
      'postgres',
      [
        '--project',
        'server',
        'src/modules',
        'src/queue',
        'src/ingest/tasks',
        'src/ingest/stages',
        'src/models',
        'src/chat',
        'src/policy',
        'src/chunk-index/chunk-index.',
        'src/search/metadata-filter.test',
        'src/storage',
        'src/http/rate-limit-store',
        'src/cli',
      ],
      {
        TEST_DATABASE_URL: pgUrl,
      },
    );
  } else {
    console.log(`\nskipping the PostgreSQL pass: nothing listens at ${pgUrl}`);
  }
}

if (wants('e2e')) {
  if (fs.existsSync(chromium)) {
    const { needsBuild } = await import('./build.mjs');
    const build = needsBuild()
      ? spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' })
      : { status: 0 };
    if (build.status !== 0) {
      console.log('e2e: the build failed');
      totals.failed += 1;
    } else {
      runVitest('e2e', ['--config', 'tests/e2e/vitest.config.ts'], { CHROMIUM_PATH: chromium });
    }
  } else {
    console.log(`\nskipping browser tests: no chromium at ${chromium} (apt-get install chromium)`);
  }
}

console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed > 0 ? 1 : 0);

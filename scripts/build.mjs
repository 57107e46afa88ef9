// Builds what `npm start` serves: the server bundle (esbuild) and the web app (vite).
// Usage: node scripts/build.mjs [--server] [--web]   (both by default)
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = path.join(root, 'apps/server');

function listFiles(dir, test) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? listFiles(p, test) : test(p) ? [p] : [];
  });
}

export async function buildServer() {
  const pkg = JSON.parse(fs.readFileSync(path.join(serverDir, 'package.json'), 'utf8'));
  // node_modules stay external; our own workspace packages (TypeScript source) are bundled in, with
  // what they depend on (agent-core's Jinja library, its JSON templates).
  const external = Object.keys(pkg.dependencies ?? {}).filter((d) => !d.startsWith('@lectern/'));
  const entryPoints = [
    path.join(serverDir, 'src/main.ts'),
    ...listFiles(path.join(serverDir, 'src'), (p) => p.endsWith('.worker.ts')),
  ];
  await build({
    entryPoints,
    outdir: path.join(serverDir, 'dist'),
    outbase: path.join(serverDir, 'src'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: true,
    external: [...external, ...external.map((d) => `${d}/*`)],
    banner: {
      // Bundled ESM still meets CommonJS-only helpers in some dependencies.
      js: "import { createRequire as __lecternCreateRequire } from 'node:module'; const require = __lecternCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  // Data files the server reads at run time (catalogues, templates) are copied next to the bundle.
  for (const file of listFiles(
    path.join(serverDir, 'src'),
    (p) => /\.(json|txt)$/.test(p) && !p.includes('/test'),
  )) {
    const dest = path.join(serverDir, 'dist', path.relative(path.join(serverDir, 'src'), file));
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.copyFileSync(file, dest);
  }
  preparePythonSnapshot();
}

/**
 * The CodeExec Python interpreter's snapshot, made once per build next to the bundled workers, so the
 * first Python call of a fresh installation restores it instead of loading Pyodide from scratch. A
 * failure only costs that first call its speed (the server loads Pyodide itself and caches the result).
 */
function preparePythonSnapshot() {
  try {
    execFileSync(process.execPath, [path.join(serverDir, 'dist/main.js'), 'prepare-python-snapshot'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } catch {
    console.warn(
      'Python sandbox snapshot not prepared: the first Python call will load Pyodide from scratch.',
    );
  }
}

export function buildWeb() {
  execFileSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: path.join(root, 'apps/web'),
      stdio: 'inherit',
    },
  );
}

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (stat.isFile()) return stat.mtimeMs;
  let newest = 0;
  for (const e of fs.readdirSync(target, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, e.name)));
  }
  return newest;
}

/** True when there is no build yet or a source is newer than the last full build. */
export function needsBuild() {
  const stampFile = path.join(root, 'apps/server/dist/.build-stamp');
  if (!fs.existsSync(stampFile) || !fs.existsSync(path.join(root, 'apps/web/dist/index.html'))) return true;
  const stamp = Number(fs.readFileSync(stampFile, 'utf8'));
  const sources = [
    'apps/server/src',
    'apps/web/src',
    'apps/web/index.html',
    'packages/shared/src',
    'package-lock.json',
  ];
  return sources.some((p) => newestMtime(path.join(root, p)) > stamp);
}

export async function buildAll() {
  await buildServer();
  buildWeb();
  writeStamp();
}

export function writeStamp() {
  fs.mkdirSync(path.join(root, 'apps/server/dist'), { recursive: true });
  fs.writeFileSync(path.join(root, 'apps/server/dist/.build-stamp'), String(Date.now()));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const all = !args.includes('--server') && !args.includes('--web');
  const t0 = Date.now();
  if (all) await buildAll();
  else {
    if (args.includes('--server')) await buildServer();
    if (args.includes('--web')) buildWeb();
  }
  console.log(`build done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

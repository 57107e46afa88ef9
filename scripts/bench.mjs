// `npm run bench -- <name> [args]`: runs bench/<name>.ts with tsx; without a name, lists them.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [name, ...rest] = process.argv.slice(2);
const available = fs
  .readdirSync(path.join(root, 'bench'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3));
if (!name || !available.includes(name)) {
  console.log(`benchmarks: ${available.join(', ') || '(none yet)'}\nusage: npm run bench -- <name> [args]`);
  process.exit(name ? 1 : 0);
}
const res = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/tsx/dist/cli.mjs'), `bench/${name}.ts`, ...rest],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
process.exit(res.status ?? 1);

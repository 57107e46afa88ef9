// `npm start`: builds the server and web app when the sources are newer than the last build,
// then serves both on http://localhost:9380 (PORT).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildAll, needsBuild } from './build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (needsBuild()) {
  console.log('Building Lectern (first start or sources changed)…');
  const t0 = Date.now();
  await buildAll();
  console.log(`Built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
await import(pathToFileURL(path.join(root, 'apps/server/dist/main.js')).href);

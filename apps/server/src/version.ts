import fs from 'node:fs';
import path from 'node:path';

/** The product version, read from the root package.json ("v" + semver). */
export function productVersion(): string {
  const here = path.dirname(new URL(import.meta.url).pathname);
  for (const rel of ['../../../package.json', '../../package.json', '../package.json']) {
    const file = path.resolve(here, rel);
    try {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'lectern' && pkg.version) return `v${pkg.version}`;
    } catch {
      // try the next candidate: the layout differs between source and bundled builds
    }
  }
  return 'v0.0.0';
}

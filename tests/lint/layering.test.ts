/**
 * The import rules of .dependency-cruiser.cjs really fail a wrong import: probe files with a
 * forbidden import are written into the tree, checked with the same configuration `npm run lint`
 * uses, and removed again. (By hand: add `import '../modules/kb/service.js'` to any file in
 * apps/server/src/db/ and run `npm run lint:deps`.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cruise,
  type ICruiseOptions,
  type IForbiddenRuleType,
  type IReporterOutput,
} from 'dependency-cruiser';

const root = path.resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const config = require(path.join(root, '.dependency-cruiser.cjs')) as {
  forbidden: IForbiddenRuleType[];
  options: ICruiseOptions;
};
const probes: string[] = [];

function probe(relDir: string, ext: string, source: string): string {
  const file = path.join(root, relDir, `zz-layering-probe-${process.pid}-${probes.length}.${ext}`);
  fs.writeFileSync(file, source);
  probes.push(file);
  return path.relative(root, file);
}

async function violationsOf(file: string): Promise<string[]> {
  const cwd = process.cwd();
  process.chdir(root);
  try {
    const result: IReporterOutput = await cruise([file], {
      ...config.options,
      ruleSet: { forbidden: config.forbidden },
      validate: true,
      maxDepth: 1,
    });
    if (typeof result.output === 'string') throw new Error('unexpected string output');
    return result.output.summary.violations.filter((v) => v.from === file).map((v) => v.rule.name);
  } finally {
    process.chdir(cwd);
  }
}

afterEach(() => {
  for (const f of probes.splice(0)) fs.rmSync(f, { force: true });
});

describe('import rules (npm run lint)', () => {
  it('refuses an import from db/ up into modules/', async () => {
    const file = probe('apps/server/src/db', 'ts', "import '../modules/kb/service.js';\nexport {};\n");
    expect(await violationsOf(file)).toContain('base-imports-upward');
  });

  it('refuses a domain folder importing a route module, and a port importing the domain', async () => {
    const chat = probe('apps/server/src/chat', 'ts', "import '../modules/dialog/service.js';\nexport {};\n");
    expect(await violationsOf(chat)).toContain('domain-imports-upward');
    const queue = probe('apps/server/src/queue', 'ts', "import '../ingest/pipeline.js';\nexport {};\n");
    expect(await violationsOf(queue)).toContain('ports-import-upward');
  });

  it('allows imports that run downward', async () => {
    const file = probe(
      'apps/server/src/modules',
      'ts',
      "import '../chat/answer.js';\nimport '../db/json.js';\nexport {};\n",
    );
    expect(await violationsOf(file)).toEqual([]);
  });

  it('refuses a web feature reaching into another feature past its index.ts', async () => {
    const bad = probe('apps/web/src/features/search', 'ts', "import '../chat/lib/messages';\nexport {};\n");
    expect(await violationsOf(bad)).toContain('web-feature-internals');
    const good = probe('apps/web/src/features/search', 'ts', "import '../chat';\nexport {};\n");
    expect(await violationsOf(good)).toEqual([]);
  });
});

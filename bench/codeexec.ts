/**
 * CodeExec sandbox figures (issue 15 "Speed"): what a caller of `runCode` waits for.
 *  1. JavaScript start: a trivial `main` through the QuickJS worker (fresh runtime + context per run),
 *     once the worker is up; and the worker's own cold start;
 *  2. Python first call, each in a new process: from scratch; on a fresh installation (empty cache
 *     folder, the snapshot `npm run build` ships); from the snapshot a previous process cached; and a
 *     call made 1 s after the server's start-up warm-up began (fresh installation);
 *  3. Python later calls: trivial and small-but-real scripts on the loaded interpreter.
 * Prints median / p95 and the machine (with its load average: the figures move with it); never
 * asserts a time.   Run: npm run bench -- codeexec [runs] [cold-python-starts]
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Sandbox } from '../apps/server/src/sandbox/index.js';
import { machine, summarize } from './lib/stats.js';

const RUNS = Number(process.argv[2] ?? 200);
const COLD = Number(process.argv[3] ?? 3);

const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(2)} ms`);
function line(label: string, xs: number[], target: string): void {
  const s = summarize(xs);
  console.log(
    `${label.padEnd(44)} median ${fmt(s.median).padStart(9)}  p95 ${fmt(s.p95).padStart(9)}  (n=${s.n}, target ${target})`,
  );
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const JS_TRIVIAL = 'function main(args) { return { sum: args.a + args.b }; }';
const JS_REAL = `function main({ rows }) {
  const header = Object.keys(rows[0]);
  return [header.join(' | '), header.map(() => '---').join(' | '), ...rows.map((r) => header.map((h) => r[h]).join(' | '))].join('\\n');
}`;
const PY_TRIVIAL = 'def main(a, b):\n    return {"sum": a + b}';
const PY_REAL = [
  'import json, statistics',
  'def main(rows):',
  '    header = list(rows[0])',
  '    lines = [" | ".join(header), " | ".join("---" for _ in header)]',
  '    lines += [" | ".join(str(r[h]) for h in header) for r in rows]',
  '    return {"table": "\\n".join(lines), "mean": statistics.mean(r["v"] for r in rows)}',
].join('\n');
const rows = Array.from({ length: 50 }, (_, i) => ({ name: `row ${i}`, v: i * 1.5, ok: i % 2 === 0 }));

interface FirstCallOptions {
  cacheDir?: string;
  builtDir?: string;
  warmFirst?: boolean;
  callAfterMs?: number;
}

/** The first call's wait in a new process (ms). */
function firstCall(options: FirstCallOptions): number {
  const tsx = path.join(process.cwd(), 'node_modules/tsx/dist/cli.mjs');
  const res = spawnSync(process.execPath, [tsx, 'bench/lib/python-first-call.ts', JSON.stringify(options)], {
    encoding: 'utf8',
  });
  const last = res.stdout.trim().split('\n').at(-1) ?? '';
  if (res.status !== 0 || !last.startsWith('{')) throw new Error(`first call failed: ${res.stderr}`);
  return (JSON.parse(last) as { ms: number }).ms;
}

async function main(): Promise<void> {
  console.log(
    `CodeExec sandbox — ${machine()}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );

  // 1. JavaScript
  const jsColdStarts: number[] = [];
  for (let i = 0; i < COLD; i++) {
    const cold = new Sandbox();
    jsColdStarts.push(
      await timed(() => cold.runCode({ lang: 'javascript', script: JS_TRIVIAL, args: { a: 1, b: 2 } })),
    );
    await cold.close();
  }
  const sb = new Sandbox();
  // The JavaScript figures come first, before any Python worker competes for the cores.
  await sb.warm('javascript');
  for (let i = 0; i < 20; i++)
    await sb.runCode({ lang: 'javascript', script: JS_TRIVIAL, args: { a: 1, b: 2 } });
  const jsTrivial: number[] = [];
  const jsReal: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    jsTrivial.push(
      await timed(() => sb.runCode({ lang: 'javascript', script: JS_TRIVIAL, args: { a: i, b: 2 } })),
    );
    jsReal.push(await timed(() => sb.runCode({ lang: 'javascript', script: JS_REAL, args: { rows } })));
  }
  line('JavaScript start (trivial main, warm worker)', jsTrivial, '< 5 ms');
  line('JavaScript 50-row table', jsReal, '—');
  line('JavaScript cold worker (first run of a sandbox)', jsColdStarts, '—');

  // 2. Python first call, each in a fresh process (bench/lib/python-first-call.ts), as after an install:
  //    from scratch (no snapshot anywhere), from the snapshot the build ships (a fresh installation:
  //    empty cache folder), from the cache a previous process wrote, and 1 s after the start-up warm-up of a fresh install.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-bench-sandbox-'));
  const builtDir = path.join(scratch, 'built');
  const cacheDir = path.join(scratch, 'cache');
  // The build's step (main.js prepare-python-snapshot) and a previous process's cache, unmeasured.
  for (const dir of [builtDir, cacheDir]) firstCall({ cacheDir: dir });
  const scenarios: Array<[string, (i: number) => FirstCallOptions]> = [
    ['Python first call, fresh, no snapshot', (i) => ({ cacheDir: path.join(scratch, `empty-${i}`) })],
    [
      'Python first call, fresh install (build snapshot)',
      (i) => ({ cacheDir: path.join(scratch, `fresh-${i}`), builtDir }),
    ],
    ['Python first call, from the cached snapshot', () => ({ cacheDir })],
    [
      'Python first call 1 s after start, fresh install',
      (i) => ({ cacheDir: path.join(scratch, `late-${i}`), builtDir, warmFirst: true, callAfterMs: 1000 }),
    ],
  ];
  for (const [label, optionsOf] of scenarios) {
    const xs: number[] = [];
    for (let i = 0; i < COLD; i++) xs.push(firstCall(optionsOf(i)));
    line(label, xs, '< 4 s');
  }
  fs.rmSync(scratch, { recursive: true, force: true });

  // 3. Python later calls.
  await sb.warm('python');
  for (let i = 0; i < 10; i++) await sb.runCode({ lang: 'python', script: PY_TRIVIAL, args: { a: 1, b: 2 } });
  const pyTrivial: number[] = [];
  const pyReal: number[] = [];
  const pyRuns = Math.max(20, Math.round(RUNS / 4));
  for (let i = 0; i < pyRuns; i++) {
    pyTrivial.push(
      await timed(() => sb.runCode({ lang: 'python', script: PY_TRIVIAL, args: { a: i, b: 2 } })),
    );
    pyReal.push(await timed(() => sb.runCode({ lang: 'python', script: PY_REAL, args: { rows } })));
  }
  line('Python later calls (trivial main)', pyTrivial, '< 50 ms');
  line('Python later calls (50-row table + statistics)', pyReal, '< 50 ms');
  await sb.close();
}

await main();

/**
 * One fresh process's first Python CodeExec call (bench/codeexec.ts runs this as a child, so nothing a
 * previous load left in the process, such as compiled WebAssembly, helps). Argument: JSON
 * `{ cacheDir, builtDir, warmFirst, callAfterMs }`; prints `{"ms": …, "loads": …}`: the time the call
 * waited, from when it was made until its result.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Sandbox } from '../../apps/server/src/sandbox/index.js';

const opts = JSON.parse(process.argv[2] ?? '{}') as {
  cacheDir?: string;
  builtDir?: string;
  warmFirst?: boolean;
  callAfterMs?: number;
};
const box = new Sandbox({ cacheDir: opts.cacheDir, builtSnapshotDir: opts.builtDir ?? null });
// As the server does at start (startSharedSandbox): the load begins, the first call comes later.
if (opts.warmFirst) void box.warm('python').catch(() => undefined);
if (opts.callAfterMs) await sleep(opts.callAfterMs);
const t0 = performance.now();
const out = await box.runCode({
  lang: 'python',
  script: 'def main(a, b):\n    return {"sum": a + b}',
  args: { a: 1, b: 2 },
});
const ms = performance.now() - t0;
if ((out.result as { sum: number }).sum !== 3) throw new Error('wrong result');
console.log(JSON.stringify({ ms, loads: box.loads().python }));
await box.close();

import { afterAll, describe, expect, it } from 'vitest';
import { closeSandbox } from '../sandbox/index.js';
import { codeExecTool } from './code-exec.js';
import { runTool, testDeps } from './testing/invoke.js';

/** CodeExec as a tool component, JavaScript side (Python: code-exec.python.test.ts). */
describe('CodeExec tool: JavaScript', () => {
  const tool = codeExecTool(testDeps({}, { timeoutMs: 1500 }));
  afterAll(() => closeSandbox());
  const js = (script: string, params: Record<string, unknown> = {}, args: Record<string, unknown> = {}) =>
    runTool(tool, {
      params: { lang: 'javascript', script, ...params },
      args,
      refs: { 'sys.query': 'hello', 'Cpn:A@n': 4 },
    });

  it('resolves argument references, runs main and spreads the result over the declared outputs', async () => {
    const run = await js(
      'async function main({ q, n }) { return { text: q.toUpperCase(), twice: n * 2, nested: { ok: "yes" } }; }\nmodule.exports = { main };',
      {
        arguments: { q: 'sys.query', n: '{Cpn:A@n}', missing: '' },
        outputs: { text: { type: 'string' }, twice: { type: 'number' }, 'nested.ok': { type: 'boolean' } },
      },
    );
    expect(run.error).toBeUndefined();
    expect(run.outputs).toEqual({ text: 'HELLO', twice: 8, 'nested.ok': true });
    expect(run.result).toEqual(run.outputs);
  });

  it('takes lang and script from the model when used as an Agent tool (nodejs alias, default result output)', async () => {
    const run = await runTool(tool, {
      args: {
        lang: 'nodejs',
        script: 'function main() { return { squares: [1, 2, 3].map((x) => x * x) }; }',
      },
    });
    // one declared output whose path is missing: the whole dict (AGENTS.md §10.4)
    expect(run.outputs).toEqual({ result: { squares: [1, 4, 9] } });
    expect(tool.meta({}).parameters.lang.enum).toEqual(['python', 'javascript']);
  });

  it('refuses escapes: require, process, fetch, dynamic import', async () => {
    const probe = await js(
      'function main() { return { result: [typeof require, typeof process, typeof fetch, typeof XMLHttpRequest] }; }',
      { outputs: { result: { type: 'array' } } },
    );
    expect(probe.outputs.result).toEqual(['undefined', 'undefined', 'undefined', 'undefined']);
    for (const attack of [
      'function main() { return require("fs").readFileSync("/etc/passwd", "utf8"); }',
      'function main() { return process.env; }',
      'async function main() { return (await fetch("http://127.0.0.1:1/")).status; }',
      'async function main() { const fs = await import("fs"); return fs.readdirSync("/"); }',
    ]) {
      const run = await js(attack);
      expect(run.error, attack).toBeTruthy();
      expect(run.outputs).toEqual({});
    }
  });

  it('ends a runaway script at its time limit with a clear error, and the next run works', async () => {
    const loop = await js('function main() { while (true) {} }');
    expect(loop.error).toMatch(/did not finish within 1\.5 s \(time limit\)/);
    const hog = await js('function main() { const a = []; while (true) a.push(new Array(1e6).fill(1)); }');
    expect(hog.error).toMatch(/memory limit|time limit/);
    const after = await js('function main() { return 7; }');
    expect(after.outputs).toEqual({ result: 7 });
  });

  it('reports the script error, an unknown language and an empty script', async () => {
    expect((await js('function main() { throw new Error("boom"); }')).error).toContain('Error: boom');
    expect((await runTool(tool, { params: { lang: 'ruby', script: 'x' } })).error).toBe(
      'Unsupported language: ruby.',
    );
    expect(tool.check?.({ lang: 'ruby' })).toHaveLength(1);
    expect((await runTool(tool, { params: { lang: 'python', script: '  ' } })).error).toBe(
      'The script is empty.',
    );
  });
});

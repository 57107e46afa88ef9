import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeExecError, Sandbox } from './index.js';

/** JavaScript in QuickJS: results, arguments, console capture, escapes refused, limits enforced. */
describe('CodeExec sandbox: JavaScript (QuickJS)', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = new Sandbox();
    await sb.warm('javascript');
  }, 60_000);
  afterAll(() => sb.close());

  const js = (script: string, args: Record<string, unknown> = {}, extra = {}) =>
    sb.runCode({ lang: 'javascript', script, args, ...extra });
  const failure = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CodeExecError);
    return err as CodeExecError;
  };

  it('runs main(args) and returns its JSON result with the printed output', async () => {
    const r = await js(
      'function main({ a, b }) { console.log("adding", a, b); console.error("careful"); return { sum: a + b, list: [a, b], big: 2n ** 70n }; }',
      { a: 2, b: 40 },
    );
    expect(r.result).toEqual({ sum: 42, list: [2, 40], big: '1180591620717411303424' });
    expect(r.stdout).toBe('adding 2 40\n');
    expect(r.stderr).toBe('careful\n');
    expect(r.elapsedMs).toBeGreaterThanOrEqual(0);
  });

  it('accepts the async main + module.exports form of the tool description', async () => {
    const r = await js(
      'async function main(args) { const x = await Promise.resolve(args.text.toUpperCase()); return JSON.stringify({ x }); }\nmodule.exports = { main };',
      { text: 'hi' },
    );
    expect(r.result).toBe('{"x":"HI"}');
    expect((await js('function main() {}')).result).toBeNull();
  });

  it('reports errors of the script: a throw, a syntax error, no main, a rejected promise', async () => {
    expect(await failure(js('function main() { throw new TypeError("bad input"); }'))).toMatchObject({
      kind: 'program_error',
      message: expect.stringContaining('TypeError: bad input'),
    });
    expect((await failure(js('function main( {'))).kind).toBe('program_error');
    expect((await failure(js('const x = 1;'))).message).toBe('The script must define a function main(args).');
    expect((await failure(js('async function main() { throw new Error("later"); }'))).message).toContain(
      'Error: later',
    );
  });

  it('has no way to the host: require, process, fetch, import, Function tricks', async () => {
    const probe = await js(`function main() {
      const g = globalThis.constructor.constructor('return this')();
      return [typeof require, typeof process, typeof fetch, typeof XMLHttpRequest, typeof WebSocket,
              typeof g.process, typeof setTimeout, typeof std, typeof os, Object.keys(g).filter(k => !k.startsWith('__')).sort()];
    }`);
    expect(probe.result).toEqual([
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      ['console', 'exports', 'main', 'module'],
    ]);
    for (const attempt of [
      'function main() { return require("fs").readFileSync("/etc/passwd", "utf8"); }',
      'function main() { return process.env; }',
      'async function main() { return await import("node:fs"); }',
      'async function main() { return (await fetch("http://127.0.0.1:9380/")).status; }',
      'function main() { return this.constructor.constructor("return process")().mainModule; }',
    ]) {
      const err = await failure(js(attempt));
      expect(err.kind).toBe('program_error');
      expect(err.message).toMatch(/ReferenceError|could not load module|not defined|TypeError/);
    }
  });

  it('stops an infinite loop at the time limit, and the next run works', async () => {
    const started = Date.now();
    expect(await failure(js('function main() { for (;;) {} }', {}, { timeoutMs: 300 }))).toMatchObject({
      kind: 'timeout',
      message: 'The script did not finish within 0.3 s (time limit).',
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect((await js('function main() { return 1 + 1; }')).result).toBe(2);
  });

  it('stops unbounded allocation at its limit, and the next run works', async () => {
    const err = await failure(
      js(
        'function main() { const a = []; for (;;) a.push([a.length, a.length, a.length, a.length]); }',
        {},
        {
          memoryMb: 8,
          timeoutMs: 20_000,
        },
      ),
    );
    expect(err.kind).toBe('memory');
    expect(err.message).toBe('The script used more than 8 MB (memory limit).');
    expect((await failure(js('function f() { return f(); } function main() { return f(); }'))).kind).toBe(
      'memory',
    );
    expect((await js('function main() { return "still fine"; }')).result).toBe('still fine');
  });

  it('stops a script that prints without end', async () => {
    expect((await failure(js('function main() { for (;;) console.log("spam spam spam"); }'))).kind).toBe(
      'output',
    );
  });
});

import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeExecError, Sandbox } from './index.js';

/**
 * Python in Pyodide: results, keyword arguments, printed output, escape attempts (modules, files, the
 * network, the JavaScript bridge, the host's shell) refused, runaway scripts stopped at their limits
 * with the next run working. One interpreter serves the whole file, as it serves the server.
 */
describe('CodeExec sandbox: Python (Pyodide)', () => {
  let sb: Sandbox;
  let secretFile: string;
  let listener: http.Server;
  let listenerHits = 0;
  const marker = path.join(os.tmpdir(), `lectern-sandbox-escape-${process.pid}`);
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-sandbox-cache-'));

  beforeAll(async () => {
    sb = new Sandbox({ cacheDir });
    secretFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-secret-')), 'secret.txt');
    fs.writeFileSync(secretFile, 'TOP-SECRET');
    listener = http.createServer((_req, res) => {
      listenerHits++;
      res.end('reached');
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    await sb.warm('python');
  }, 180_000);
  afterAll(async () => {
    await sb.close();
    await new Promise((r) => listener.close(r));
    fs.rmSync(path.dirname(secretFile), { recursive: true, force: true });
    fs.rmSync(marker, { force: true });
    fs.rmSync(cacheDir, { recursive: true, force: true });
  });

  const py = (script: string, args: Record<string, unknown> = {}, extra = {}) =>
    sb.runCode({ lang: 'python', script, args, ...extra });
  const failure = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CodeExecError);
    return err as CodeExecError;
  };

  it('calls main(**args) and returns its result as JSON, with what it printed', async () => {
    const r = await py(
      [
        'import json, statistics, datetime, re, collections',
        'def main(arg1: str, arg2: str, nums=None):',
        '    print("joining", arg1, arg2)',
        '    return {"result": arg1 + arg2, "mean": statistics.mean(nums), "pair": (1, 2),',
        '            "tags": sorted({"b", "a"}), "nan": float("nan"), "raw": b"bytes",',
        '            "when": datetime.date(2024, 1, 2).isoformat(), "words": re.findall(r"\\w+", "a b")}',
      ].join('\n'),
      { arg1: 'a', arg2: 'b', nums: [1, 2, 3, 4] },
    );
    expect(r.result).toEqual({
      result: 'ab',
      mean: 2.5,
      pair: [1, 2],
      tags: ['a', 'b'],
      nan: null,
      raw: 'bytes',
      when: '2024-01-02',
      words: ['a', 'b'],
    });
    expect(r.stdout).toBe('joining a b\n');
    expect((await py('def main():\n    return None')).result).toBeNull();
    expect(
      (
        await py('def main(input_text: str) -> str:\n    return "| a |\\n|---|\\n| " + input_text + " |"', {
          input_text: 'x',
        })
      ).result,
    ).toBe('| a |\n|---|\n| x |');
  });

  it('reports script errors with the line', async () => {
    expect(await failure(py('def main():\n    x = 1\n    return x / 0'))).toMatchObject({
      kind: 'program_error',
      message: 'ZeroDivisionError: division by zero (line 3)',
    });
    expect((await failure(py('def main(:\n    pass'))).message).toMatch(/^SyntaxError: .*\(line 1\)$/);
    expect((await failure(py('x = 1'))).message).toBe('The script must define a function main(...).');
    expect((await failure(py('def main(a):\n    return a', { b: 1 }))).message).toMatch(
      /^TypeError: main\(\) got an unexpected keyword argument 'b'/,
    );
  });

  it('refuses the modules that reach the process, the network, native code and the JS bridge', async () => {
    for (const mod of [
      'os',
      'sys',
      'subprocess',
      'socket',
      'ctypes',
      'js',
      'pyodide',
      'pyodide_js',
      'importlib',
      'shutil',
      'pathlib',
      'gc',
      'inspect',
      'builtins',
    ]) {
      const err = await failure(py(`import ${mod}\ndef main():\n    return 1`));
      expect({ mod, kind: err.kind, message: err.message }).toEqual({
        mod,
        kind: 'unauthorized',
        message: `import of ${mod} is not allowed in the sandbox`,
      });
    }
    expect((await failure(py('def main():\n    return __import__("os").getcwd()'))).kind).toBe(
      'unauthorized',
    );
    expect(
      (
        await failure(
          py('def main():\n    from pyodide.code import run_js\n    return run_js("process.pid")'),
        )
      ).kind,
    ).toBe('unauthorized');
  });

  it('cannot read host files, write files or run host commands, even through indirect routes', async () => {
    expect(
      await failure(py(`def main():\n    return open(${JSON.stringify(secretFile)}).read()`)),
    ).toMatchObject({
      kind: 'unauthorized',
      message: 'file access is not allowed in the sandbox',
    });
    // Through a module that holds os: the shell is refused, and the file system is the interpreter's own.
    expect(
      (await failure(py(`import random\ndef main():\n    return random._os.system("touch ${marker}")`))).kind,
    ).toBe('unauthorized');
    const listing = await py(
      `import random\ndef main():\n    o = random._os\n    return [sorted(o.listdir("/")), o.path.exists(${JSON.stringify(secretFile)}), o.path.exists("/etc/passwd"), sorted(o.environ)]`,
    );
    expect(listing.result).toEqual([
      ['dev', 'home', 'lib', 'proc', 'tmp'],
      false,
      false,
      expect.not.arrayContaining(['LECTERN_SECRET_KEY', 'DATABASE_URL', 'PATH_TO_HOST']),
    ]);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('has no network: sockets and HTTP clients do not reach a listening server', async () => {
    const port = (listener.address() as AddressInfo).port;
    expect(
      (
        await failure(
          py(
            `import urllib.request\ndef main():\n    return urllib.request.urlopen("http://127.0.0.1:${port}/").read()`,
          ),
        )
      ).kind,
    ).toBe('unauthorized');
    // Even with the socket module loaded through the interpreter's internals, nothing connects.
    const sneaky = await failure(
      py(
        [
          'def main():',
          '    loader = [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == "BuiltinImporter"][0]',
          '    spec = loader.find_spec("_socket")',
          '    s = loader.create_module(spec)',
          '    loader.exec_module(s)',
          '    sock = s.socket()',
          `    sock.connect(("127.0.0.1", ${port}))`,
          '    sock.send(b"GET / HTTP/1.0\\r\\n\\r\\n")',
          '    return sock.recv(100).decode()',
        ].join('\n'),
      ),
    );
    // The Python-level block was bypassed; the socket layer under it refuses to connect.
    expect(sneaky).toMatchObject({ kind: 'unauthorized', message: '[Errno 2] Permission denied' });
    expect(listenerHits).toBe(0);
  });

  it('stops an infinite loop at the time limit (even one that swallows the interrupt), and the next run works', async () => {
    await sb.warm('python');
    const loads = sb.loads().python;
    const started = Date.now();
    expect(
      await failure(py('def main():\n    while True:\n        pass', {}, { timeoutMs: 500 })),
    ).toMatchObject({
      kind: 'timeout',
      message: 'The script did not finish within 0.5 s (time limit).',
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect((await py('def main():\n    return 2')).result).toBe(2);
    expect(sb.loads().python).toBe(loads); // interrupted, not restarted

    const stubborn =
      'def main():\n    while True:\n        try:\n            while True:\n                pass\n        except BaseException:\n            pass';
    expect((await failure(py(stubborn, {}, { timeoutMs: 500 }))).kind).toBe('timeout');
    expect((await py('def main():\n    return 3')).result).toBe(3);
    expect(sb.loads().python).toBe(loads + 1); // that one needed a fresh interpreter (from the snapshot)
    // The fresh interpreter is locked down like the first one.
    expect((await failure(py('import os\ndef main():\n    return 1'))).kind).toBe('unauthorized');
    expect((await failure(py('import random\ndef main():\n    return random._os.system("id")'))).kind).toBe(
      'unauthorized',
    );
  }, 180_000);

  it('stops an allocation bomb at the memory limit, and the next run works', async () => {
    const err = await failure(
      py(
        'def main():\n    hoard = []\n    while True:\n        hoard.append(bytearray(8 * 1024 * 1024))',
        {},
        { memoryMb: 128 },
      ),
    );
    expect(err).toMatchObject({
      kind: 'memory',
      message: 'The script used more than 128 MB (memory limit).',
    });
    expect((await py('def main():\n    return sum(range(10))')).result).toBe(45);
  });

  it('a script that patches a shared module does not affect the next run', async () => {
    const err = await failure(
      py('import json\ndef main():\n    json.dumps = lambda *a, **k: "\\"pwned\\""\n    return 1'),
    );
    expect(err.kind).toBe('unauthorized');
    expect((await py('import json\ndef main():\n    return json.dumps({"a": 1})')).result).toBe('{"a": 1}');
  }, 180_000);

  it('a new sandbox starts from the cached interpreter snapshot, locked down the same way', async () => {
    const [file] = fs.readdirSync(cacheDir);
    expect(file).toMatch(/^pyodide-.+\.snapshot$/);
    expect(fs.statSync(path.join(cacheDir, file)).mode & 0o777).toBe(0o600);
    const next = new Sandbox({ cacheDir });
    try {
      expect(
        (
          await next.runCode({
            lang: 'python',
            script: 'import statistics\ndef main(a):\n    return statistics.mean(a)',
            args: { a: [1, 2] },
          })
        ).result,
      ).toBe(1.5);
      expect(
        (await failure(next.runCode({ lang: 'python', script: 'import js\ndef main():\n    return 1' })))
          .kind,
      ).toBe('unauthorized');
      expect(
        (
          await failure(
            next.runCode({
              lang: 'python',
              script: `def main():\n    return open(${JSON.stringify(secretFile)}).read()`,
            }),
          )
        ).kind,
      ).toBe('unauthorized');
    } finally {
      await next.close();
    }
  }, 180_000);
});

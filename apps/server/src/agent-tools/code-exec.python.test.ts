import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSandbox, sandbox } from '../sandbox/index.js';
import { codeExecTool } from './code-exec.js';
import { runTool, testDeps } from './testing/invoke.js';

/** CodeExec as a tool component, Python side: one Pyodide for the whole file (its first load takes seconds). */
describe('CodeExec tool: Python', () => {
  const tool = codeExecTool(testDeps({}, { timeoutMs: 3000 }));
  beforeAll(() => sandbox().warm('python'), 180_000);
  afterAll(() => closeSandbox());
  const py = (script: string, params: Record<string, unknown> = {}) =>
    runTool(tool, { params: { lang: 'python3', script, ...params }, refs: { 'sys.query': 'ab' } });

  it('runs main(**arguments) and maps a dict onto the declared outputs', async () => {
    const run = await py(
      'def main(text: str, count) -> dict:\n    return {"result": text * 2, "n": count}\n',
      {
        arguments: { text: 'sys.query', count: '' },
        outputs: { result: { type: 'string' }, n: { type: 'number' } },
      },
    );
    expect(run.error).toBeUndefined();
    expect(run.outputs).toEqual({ result: 'abab', n: null });
  });

  it('refuses escapes: os, socket, subprocess', async () => {
    const attacks = [
      'import os\ndef main():\n    return os.listdir("/")',
      'import os\ndef main():\n    return os.system("id")',
      'import socket\ndef main():\n    s = socket.create_connection(("127.0.0.1", 22))\n    return "connected"',
      'import subprocess\ndef main():\n    return subprocess.run(["id"], capture_output=True).stdout.decode()',
    ];
    for (const script of attacks) {
      const run = await py(script);
      expect(run.error, script).toBeTruthy();
      expect(run.outputs).toEqual({});
    }
  });

  it('stops a runaway loop at the time limit and keeps working', async () => {
    const run = await py('def main():\n    while True:\n        pass\n');
    expect(run.error).toMatch(/time limit/);
    const after = await py('def main():\n    return 5\n');
    expect(after.outputs).toEqual({ result: 5 });
  }, 60_000);
});

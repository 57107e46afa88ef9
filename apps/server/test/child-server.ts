/**
 * Lectern as a real child process (tsx over src/main.ts), for tests that kill processes or run several
 * side by side: start one with its environment, call it over HTTP, wait for it to exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Child {
  proc: ChildProcess;
  url: string;
  output: string[];
}

/** Starts a server process; resolves once it answers /v1/system/ping (a worker-only process: at once). */
export async function startChild(env: Record<string, string>): Promise<Child> {
  const port = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  proc.stdout?.on('data', (d) => output.push(String(d)));
  proc.stderr?.on('data', (d) => output.push(String(d)));
  const url = `http://127.0.0.1:${port}`;
  if (env.LECTERN_ROLE === 'worker') return { proc, url, output };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited: ${output.join('')}`);
    try {
      if ((await fetch(`${url}/v1/system/ping`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${output.join('')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { proc, url, output };
}

/** A JSON call; GET without a body. The answer's `data` is loose JSON for the test to read. */
export async function callChild(child: Child, route: string, body?: unknown, token?: string) {
  const res = await fetch(`${child.url}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { headers: res.headers, body: (await res.json()) as { code: number; message: string; data: any } }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads loose JSON
}

/** Resolves when the process has ended (by itself or by a signal — a killed one has no exit code). */
export function exited(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((r) => proc.once('exit', () => r()));
}

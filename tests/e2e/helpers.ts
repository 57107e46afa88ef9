import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';

/** How long a UI read is retried until it shows the expected value (the page renders asynchronously). */
export const POLL = { timeout: 10_000 };

/** Helpers of the browser tests: the built server as a child process, Chromium, test files. */

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
// E2E_SERVER_MAIN points at another server build (e.g. a clean checkout's) when this one is mid-change.
const serverMain = process.env.E2E_SERVER_MAIN ?? path.join(root, 'apps/server/dist/main.js');
// E2E_WEB_DIST likewise points at another web build's folder (the one holding index.html).
const webIndex = path.join(process.env.E2E_WEB_DIST ?? path.join(root, 'apps/web/dist'), 'index.html');

export interface RunningServer {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Starts `node apps/server/dist/main.js` on a free port with a fresh data folder; waits for healthz. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  for (const file of [serverMain, webIndex]) {
    if (!fs.existsSync(file))
      throw new Error(`${path.relative(root, file)} is missing: run \`node scripts/build.mjs\` first`);
  }
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-e2e-'));
  const child = spawn(process.execPath, [serverMain], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LECTERN_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      WEB_DIST_DIR: path.dirname(webIndex),
      // Model and search stand-ins listen on 127.0.0.1: let the outbound guard reach them.
      LECTERN_SSRF_ALLOW: '127.0.0.1,::1,localhost',
      // Each browser test starts its own server: no Python warm-up per start (a test that runs Python still
      // loads it on first use; the warm-up itself is covered by sandbox/python-startup.test.ts).
      CODEEXEC_PYTHON_WARMUP: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      if (!(await exited(child, 10_000))) {
        child.kill('SIGKILL');
        await exited(child, 5_000);
      }
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the server exited with code ${child.exitCode} before it was healthy:\n${output}`);
    }
    try {
      const res = await fetch(`${url}/v1/system/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server was not healthy within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, dataDir, stop };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A real RGB PNG of the given size: a diagonal gradient, so it is not a flat colour. */
export function makePng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      raw[row + 1 + x * 3] = (x * 255) / width;
      raw[row + 2 + x * 3] = (y * 255) / height;
      raw[row + 3 + x * 3] = 160;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Width and height of a PNG (from its IHDR chunk). */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** A body colour is "dark" when its average channel is below the middle. */
export function isDarkColor(css: string): boolean {
  const [r, g, b] = (css.match(/\d+(\.\d+)?/g) ?? ['255', '255', '255']).map(Number);
  return (r + g + b) / 3 < 128;
}

/** Signs up through the /login page, then signs in with the same credentials, keyboard first. */
export async function registerAndSignIn(
  page: Page,
  who: { nickname: string; email: string; password: string },
) {
  const { email, password } = who;
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByLabel('Nickname').fill(who.nickname);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByLabel('Confirm password').press('Enter');
  await page.getByText('Registered!').waitFor();
  // Sign-up signs in: straight to the home page.
  await page.waitForURL((url) => url.pathname === '/');
}

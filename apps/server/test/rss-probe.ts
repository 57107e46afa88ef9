/**
 * Item 4 measurement (run by hand: `npx tsx apps/server/test/rss-probe.ts [jsonLimitBytes]`): RSS of
 * the server process before and after a 300 MB POST to /v1/user/login, streamed in 1 MiB writes
 * with a declared Content-Length, then again chunked (no length).
 */
import http from 'node:http';
import { startTestServer } from './harness.js';

const TOTAL = 300 * 1024 * 1024;

function post(url: string, declared: boolean): Promise<number> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { 'Content-Type': 'application/json' };
    if (declared) headers['Content-Length'] = TOTAL;
    const req = http.request(new URL('/v1/user/login', url), { method: 'POST', headers });
    let done = false;
    const finish = (status: number) => {
      if (done) return;
      done = true;
      req.destroy();
      resolve(status);
    };
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => finish(res.statusCode ?? 0));
    });
    req.on('error', () => finish(-1));
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let written = 0;
    const pump = () => {
      while (written < TOTAL && !done) {
        written += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!done) req.end();
    };
    pump();
  });
}

const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
const env: Record<string, string> = process.argv[2] ? { MAX_JSON_BYTES: process.argv[2] } : {};
const server = await startTestServer(env);
global.gc?.();
const before = process.memoryUsage().rss;
let peak = before;
const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
const s1 = await post(server.url, true);
const s2 = await post(server.url, false);
clearInterval(timer);
const after = process.memoryUsage().rss;
console.log(
  `limit=${process.argv[2] ?? 'default'} status(declared)=${s1} status(chunked)=${s2} ` +
    `rss before=${mb(before)} peak=${mb(peak)} after=${mb(after)} load=${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
);
await server.close();
process.exit(0);

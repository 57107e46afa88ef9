// A bench client on its own thread: it POSTs SSE requests and times them (request → first body chunk,
// request → end) on an event loop the server does not share, as a browser would. Plain JS so the
// worker needs no TypeScript loader. Input (workerData): { url, token, path, jobs: [{ body }], parallel }.
// node:http rather than fetch: the bench shares the machine's cores with the server, and undici's
// fetch (web streams, timing info) cost the client about as much CPU per run as the server's own
// work — a browser spends that on its own machine. Answers the results and this thread's busy time.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';

const { url, token, path, jobs, parallel } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

function one(body) {
  const payload = JSON.stringify(body);
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}${path}`,
      {
        method: 'POST',
        agent,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(payload),
          Authorization: token,
        },
      },
      (res) => {
        let firstMs = -1;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          if (firstMs < 0) firstMs = performance.now() - t0;
          text += chunk;
        });
        res.on('end', () => resolve({ firstMs, totalMs: performance.now() - t0, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const elu0 = performance.eventLoopUtilization();
const results = [];
if (parallel) results.push(...(await Promise.all(jobs.map((j) => one(j.body)))));
else for (const j of jobs) results.push(await one(j.body));
const elu = performance.eventLoopUtilization(elu0);
agent.destroy();
parentPort.postMessage({ results, busyMs: elu.active });

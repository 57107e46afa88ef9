// A bench client on its own thread: it POSTs SSE requests and times them (request → first body chunk,
// request → end) on an event loop the server does not share, as a browser would. Plain JS so the
// worker needs no TypeScript loader. Input (workerData): { url, token, path, jobs: [{ body }], parallel }.
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';

const { url, token, path, jobs, parallel } = workerData;

async function one(body) {
  const t0 = performance.now();
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: token },
    body: JSON.stringify(body),
  });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let firstMs = -1;
  let text = '';
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    if (firstMs < 0) firstMs = performance.now() - t0;
    text += decoder.decode(chunk.value, { stream: true });
  }
  return { firstMs, totalMs: performance.now() - t0, text };
}

const results = [];
if (parallel) results.push(...(await Promise.all(jobs.map((j) => one(j.body)))));
else for (const j of jobs) results.push(await one(j.body));
parentPort.postMessage(results);

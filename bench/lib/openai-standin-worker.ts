/**
 * The OpenAI stand-in on a thread of its own, as a real model server runs outside the Lectern
 * process: on the server's event loop its request handling and chunk writes queued behind (and
 * ahead of) the runs' own work. Input (workerData, started by ts-worker.mjs): { reply, firstTokenMs, chunkDelayMs }; posts
 * { url, origin, port } once listening, then its busy time when told 'close'.
 */
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { startOpenAIStandin } from '../../apps/server/test/standins/index.js';

const { reply, firstTokenMs, chunkDelayMs } = workerData as {
  reply: string;
  firstTokenMs: number;
  chunkDelayMs: number;
};
const llm = await startOpenAIStandin({ reply: () => reply, firstTokenMs, chunkDelayMs });
let elu = performance.eventLoopUtilization();
parentPort!.postMessage({ url: llm.url, origin: llm.origin, port: llm.port });
parentPort!.on('message', (m: string) => {
  if (m === 'busy') {
    // Busy time since the last ask.
    const now = performance.eventLoopUtilization();
    parentPort!.postMessage({ busyMs: performance.eventLoopUtilization(now, elu).active });
    elu = now;
  } else if (m === 'close') void llm.close().then(() => parentPort!.close());
});

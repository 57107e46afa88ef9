/**
 * What a retrieval costs the API's event loop on the embedded SQLite index with its search threads
 * (issue 17 item 4), A/B in one run under the same load:
 *  - "threads": as the server runs now — the query plan (tokenizing, term statistics) and the window's
 *    term similarity are made on the search threads (SqliteChunkIndex.planQuery, SearchRequest.termQuery);
 *  - "inline": the earlier path — planning over termStats and term similarity on the calling thread
 *    (the same index without planQuery, requests without termQuery).
 * Per mode: main-thread CPU per retrieval (Linux /proc task times; 10 ms ticks, so summed over all
 * questions), wall time sequential (median/p95), and N retrievals at once (p95, wall). Hybrid questions
 * with the retrieval_test defaults and precomputed vectors, like bench/retrieval-speed.ts (same corpus;
 * the index is built into --dir once and reused). Rounds alternate the modes. Prints figures only.
 *   npx tsx bench/retrieval-main-thread.ts [--chunks 100000] [--queries 100] [--concurrent 50]
 *                                          [--rounds 2] [--dir …]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChunkIndex, SearchRequest } from '../apps/server/src/chunk-index/chunk-index.js';
import { retrieve } from '../apps/server/src/search/retrieval.js';
import { machine, summarize } from './lib/stats.js';
import { openStore } from './lib/stores.js';
import { SyntheticCorpus } from './lib/synthetic.js';

const args = process.argv.slice(2);
const value = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const chunks = Number(value('--chunks') ?? 100_000);
const queries = Number(value('--queries') ?? 100);
const concurrent = Number(value('--concurrent') ?? 50);
const rounds = Number(value('--rounds') ?? 2);
const dir = value('--dir') ?? path.join(os.tmpdir(), `lectern-main-thread-${chunks}`);
const KB = 'speedkb';

/** CPU time of this process's main thread in ms (Linux; null elsewhere). */
function mainThreadCpuMs(): number | null {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), i.e. 12 and 13 after the command name.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/** The earlier path: no planning on the index's threads, no term similarity there. */
function inlineOf(index: ChunkIndex): ChunkIndex {
  return {
    ...Object.fromEntries((['termStats', 'list', 'getMany'] as const).map((m) => [m, index[m].bind(index)])),
    search: (req: SearchRequest) => index.search({ ...req, termQuery: undefined }),
    // retrieve() reads only termStats, search, list and getMany of the port.
  } as unknown as ChunkIndex;
}

interface Figures {
  cpuPerQuery: number[];
  seq: number[];
  concP95: number[];
  concWall: number[];
}

async function main(): Promise<void> {
  const store = await openStore('sqlite', { dir, pgBase: '', pgDatabase: '', fresh: false, thread: true });
  const index = store.index;
  const corpus = new SyntheticCorpus();
  if ((await store.chunks()) !== chunks) {
    await index.deleteByKb(KB);
    const t = performance.now();
    for (let i = 0; i < chunks; i += 1000) {
      const recs = [];
      for (let k = i; k < Math.min(chunks, i + 1000); k++) recs.push(corpus.chunk(k, KB, true));
      await index.upsert(recs);
    }
    console.log(`built ${chunks} chunks in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  }
  const qs: Array<ReturnType<SyntheticCorpus['question']>> = [];
  for (let q = 0; q < queries + concurrent; q++) {
    const target = corpus.chunk(Math.floor((q * 7919) % chunks), KB, true);
    qs.push(corpus.question(target.content_with_weight, target.vector, 5, 0));
  }
  const modes: Record<string, ChunkIndex> = { threads: index, inline: inlineOf(index) };
  const figures: Record<string, Figures> = {};
  const ask = (idx: ChunkIndex, q: (typeof qs)[number]) =>
    retrieve(idx, { question: q.question, kbIds: [KB], queryVector: q.vector });
  for (const idx of Object.values(modes)) await ask(idx, qs[0]); // warm both paths
  for (let r = 0; r < rounds; r++) {
    for (const [mode, idx] of Object.entries(modes)) {
      const f = (figures[mode] ??= { cpuPerQuery: [], seq: [], concP95: [], concWall: [] });
      const cpu0 = mainThreadCpuMs();
      for (const q of qs.slice(0, queries)) {
        const t = performance.now();
        await ask(idx, q);
        f.seq.push(performance.now() - t);
      }
      const cpu1 = mainThreadCpuMs();
      if (cpu0 !== null && cpu1 !== null) f.cpuPerQuery.push((cpu1 - cpu0) / queries);
      const t0 = performance.now();
      const times = await Promise.all(
        qs.slice(queries).map(async (q) => {
          const t = performance.now();
          await ask(idx, q);
          return performance.now() - t;
        }),
      );
      f.concWall.push(performance.now() - t0);
      f.concP95.push(summarize(times).p95);
    }
  }
  await store.close();
  console.log(
    `machine: ${machine()} (load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')})`,
  );
  console.log(
    `${chunks} chunks, hybrid retrieval, ${queries} sequential + ${concurrent} at once, ${rounds} rounds`,
  );
  const ms = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(' / ');
  for (const [mode, f] of Object.entries(figures)) {
    const s = summarize(f.seq);
    console.log(`[${mode}]`);
    console.log(`  main-thread CPU per retrieval (per round) ${ms(f.cpuPerQuery)} ms`);
    console.log(`  sequential median ${s.median.toFixed(1)} ms  p95 ${s.p95.toFixed(1)} ms`);
    console.log(`  ${concurrent} at once: p95 ${ms(f.concP95)} ms; wall ${ms(f.concWall)} ms`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

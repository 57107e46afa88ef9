/**
 * `use_kg` retrieval cost (issue 16: adds < 50 ms p95 at 10,000 entities). Builds a KB graph of
 * `--entities` entities and about 3× as many relations (synthetic names over a small vocabulary, each
 * entity linked to its neighbours and a few random ones), writes it the way the graph job does (graph
 * row + entity/relation/community records with 384-dim hashed embeddings in the chunk index), then
 * times the `use_kg` step of a retrieval (`kgRetrieval`: hybrid search over graph records, n-hop
 * relation look-ups, community report, table rendering) for `--queries` questions naming entities.
 * The question's vector is precomputed (embedding time excluded, as in retrieval-speed) and no chat
 * model rewrites the question. Prints median/p95 and the machine; never asserts a time.
 *
 *   npx tsx bench/graph-use-kg.ts [--entities 10000] [--queries 200] [--store sqlite|postgres]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../apps/server/src/config.js';
import { createRoot, closeRoot } from '../apps/server/src/root.js';
import { assignPageRank, detectCommunities } from '../apps/server/src/graph/communities.js';
import { createKbGraph, relationKey } from '../apps/server/src/graph/kb-graph.js';
import { writeGraphRecords } from '../apps/server/src/graph/jobs/index-write.js';
import { kgRetrieval } from '../apps/server/src/graph/jobs/kg-retrieval.js';
import { saveKbGraph } from '../apps/server/src/graph/jobs/store.js';
import type { CommunityReport } from '../apps/server/src/graph/reports.js';
import { seededRandom } from '../apps/server/src/raptor/random.js';
import { hashedEmbedding } from './lib/hashed-embedding.js';
import { machine, summarize } from './lib/stats.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
const ENTITIES = Number(arg('entities', '10000'));
const QUERIES = Number(arg('queries', '200'));
const STORE = arg('store', 'sqlite');

const WORDS =
  'river stone harbor falcon copper lantern meadow orbit cedar signal prism thunder maple quartz ember glacier canyon violet summit anchor'.split(
    ' ',
  );
const TYPES = ['PERSON', 'ORGANIZATION', 'GEO', 'EVENT', 'CATEGORY'];
const rand = seededRandom(1);
const nameOf = (i: number) =>
  `${WORDS[i % WORDS.length]} ${WORDS[Math.floor(i / WORDS.length) % WORDS.length]} ${i}`.toUpperCase();

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-usekg-'));
const env: Record<string, string> = {
  LOG_LEVEL: 'silent',
  LECTERN_DATA_DIR: dataDir,
  LECTERN_SECRET_KEY: 'bench',
  MODEL_VERIFY: '0',
};
if (STORE === 'postgres')
  env.DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ctx = await createRoot(loadConfig(env));
try {
  const kb = { id: 'usekgbenchkb00000000000000000000', tenant_id: 'bench' };
  const graph = createKbGraph();
  for (let i = 0; i < ENTITIES; i++) {
    const name = nameOf(i);
    graph.addNode(name, {
      entity_name: name,
      entity_type: TYPES[i % TYPES.length],
      description: `${name} is a ${TYPES[i % TYPES.length].toLowerCase()} near ${nameOf((i + 1) % ENTITIES)}.`,
      source_id: [`c${i}`],
      pagerank: 0,
      summary_of: '',
      contributions: {},
    });
  }
  const link = (a: number, b: number) => {
    const [s, t] = [nameOf(a), nameOf(b)];
    if (s === t || graph.hasEdge(relationKey(s, t))) return;
    const [src, tgt] = s < t ? [s, t] : [t, s];
    graph.addEdgeWithKey(relationKey(s, t), src, tgt, {
      src_id: src,
      tgt_id: tgt,
      description: `${s} works with ${t}.`,
      keywords: ['works with'],
      weight: 1 + Math.floor(rand() * 9),
      source_id: [`c${a}`],
      summary_of: '',
      contributions: {},
    });
  };
  for (let i = 0; i < ENTITIES; i++) {
    link(i, (i + 1) % ENTITIES);
    link(i, Math.floor(rand() * ENTITIES));
    link(i, Math.floor(rand() * ENTITIES));
  }
  assignPageRank(graph);
  const communities = detectCommunities(graph, { seed: 0 });
  const reports: CommunityReport[] = communities.slice(0, 200).map((c) => ({
    community: c.id,
    entities: c.entities,
    weight: c.weight,
    title: `Community of ${c.entities[0]}`,
    summary: `${c.entities.slice(0, 5).join(', ')} and others.`,
    rating: 5,
    rating_explanation: 'synthetic',
    findings: [{ summary: 'linked', explanation: `${c.entities[0]} links the others.` }],
  }));
  const t0 = performance.now();
  const embedder = {
    embed: async (texts: string[]) => ({ vectors: texts.map((t) => hashedEmbedding(t, 384)) }),
  };
  const written = await writeGraphRecords(ctx.chunkIndex, kb, graph, reports, { embedder });
  await saveKbGraph(ctx.db.kysely, kb.id, {
    graph,
    reports,
    communities: communities.length,
    added: [],
    removed: [],
  });
  const buildS = (performance.now() - t0) / 1000;

  // Time spent in the index per call kind (where the use_kg time goes).
  const spent: Record<string, number[]> = {};
  const index = ctx.chunkIndex as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  for (const m of ['search', 'getMany', 'termStats']) {
    const orig = index[m].bind(ctx.chunkIndex);
    index[m] = async (...a: unknown[]) => {
      const t = performance.now();
      try {
        return await orig(...a);
      } finally {
        (spent[m] ??= []).push(performance.now() - t);
      }
    };
  }
  const kbRow = { id: kb.id, tenant_id: kb.tenant_id, parser_config: '{}' };
  const times: number[] = [];
  let nonEmpty = 0;
  for (let q = 0; q < QUERIES + 5; q++) {
    const a = nameOf(Math.floor(rand() * ENTITIES));
    const question = `Who works with ${a.toLowerCase()}?`;
    const vector = process.argv.includes('--keyword-only') ? null : hashedEmbedding(question, 384);
    const start = performance.now();
    const r = await kgRetrieval(ctx, { kbs: [kbRow], question, queryVector: vector, rewrite: false });
    const ms = performance.now() - start;
    if (q >= 5) {
      times.push(ms);
      if (r?.content) nonEmpty++;
    }
  }
  const s = summarize(times);
  console.log(
    `use_kg on ${STORE}: ${graph.order} entities, ${graph.size} relations, ${reports.length} reports; ${written.written} records indexed in ${buildS.toFixed(1)} s`,
  );
  console.log(
    `kgRetrieval over ${s.n} questions: median ${s.median.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms, max ${s.max.toFixed(1)} ms; ${nonEmpty} answered with graph content`,
  );
  for (const [m, xs] of Object.entries(spent)) {
    const k = summarize(xs);
    console.log(`  ${m}: ${k.n} calls, median ${k.median.toFixed(1)} ms, p95 ${k.p95.toFixed(1)} ms`);
  }
  console.log(
    `machine: ${machine()}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await closeRoot(ctx);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

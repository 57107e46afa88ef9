/**
 * Retrieval quality on BEIR SciFact (test split): keyword-only and hybrid with a NON-SEMANTIC
 * embedding stand-in. Prints nDCG@10 and Recall@100 (published BM25: nDCG@10 0.665–0.679).
 *
 * By default the corpus goes through Lectern's real ingestion and HTTP retrieval (upload → parse with
 * chunk method `one` → POST /v1/chunk/retrieval_test, keyword-only); `--direct` also runs the same
 * queries straight against the chunk index, keyword-only and hybrid.
 *
 *   npx tsx bench/retrieval-quality.ts [--limit 500] [--json] [--direct] [--keyword-only]
 */
import { runSciFact, sciFactAvailable, SCIFACT_DIR, type SciFactRun } from './lib/scifact.js';
import { runSciFactPipeline } from './lib/scifact-pipeline.js';
import { machine, summarize } from './lib/stats.js';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const value = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

async function main(): Promise<void> {
  if (!sciFactAvailable()) {
    console.log(`SciFact not found at ${SCIFACT_DIR}: skipped.`);
    return;
  }
  const limit = value('--limit') ? Number(value('--limit')) : undefined;
  // `--weights 0,0.3,0.5`: the same queries at each vector_similarity_weight a client may send.
  const weights = (value('--weights') ?? '0.3').split(',').map(Number).filter(Number.isFinite);
  const pipeline = await runSciFactPipeline({ limit, weights });
  const p = summarize(pipeline.queryMs);
  const pipelineLine =
    `pipeline (upload → parse → /v1/chunk/retrieval_test, keyword-only): docs ${pipeline.docs}, queries ${pipeline.queries} | ` +
    `nDCG@10 ${pipeline.ndcg10.toFixed(4)} | Recall@100 ${pipeline.recall100.toFixed(4)} | ingest ${pipeline.ingestSeconds.toFixed(1)} s ` +
    `(${pipeline.docsPerSecond.toFixed(1)} docs/s) | HTTP query median ${p.median.toFixed(1)} ms, p95 ${p.p95.toFixed(1)} ms`;
  const weightLine = pipeline.byWeight
    .map((w) => `vw ${w.weight}: nDCG@10 ${w.ndcg10.toFixed(4)}, Recall@100 ${w.recall100.toFixed(4)}`)
    .join(' | ');
  const runs: SciFactRun[] = [];
  if (flag('--direct')) {
    runs.push(await runSciFact({ limit }));
    if (!flag('--keyword-only')) runs.push(await runSciFact({ limit, hybrid: true }));
  }
  if (flag('--json')) {
    console.log(
      JSON.stringify(
        {
          machine: machine(),
          pipeline: { ...pipeline, queryMs: p },
          runs: runs.map((r) => ({ ...r, queryMs: summarize(r.queryMs) })),
        },
        null,
        2,
      ),
    );
    return;
  }
  console.log(`machine: ${machine()}`);
  console.log(pipelineLine);
  console.log(`keyword-only by vector weight: ${weightLine}`);
  for (const r of runs) {
    const s = summarize(r.queryMs);
    console.log(
      `direct index, ${r.mode}: docs ${r.docs}, queries ${r.queries} | nDCG@10 ${r.ndcg10.toFixed(4)} (page of 10: ${r.ndcg10Page10.toFixed(4)}) | Recall@100 ${r.recall100.toFixed(4)} | index ${r.indexSeconds.toFixed(1)} s | query median ${s.median.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms`,
    );
  }
  if (!limit) console.log('published BM25 on this set: nDCG@10 0.665 (multifield) – 0.679 (flat)');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

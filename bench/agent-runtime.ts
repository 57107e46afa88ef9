/**
 * Agent runtime figures (issue 14 "Speed"), with fake ports (no network, no real model):
 *  1. runtime overhead per component, model and tool time excluded: a 10-component flow run many
 *     times against a zero-latency scripted model and retriever; the fakes' own time is measured
 *     apart and subtracted (target < 2 ms per component);
 *  2. 50 concurrent runs of the same flow against a model answering after a fixed latency: p95 of
 *     the run totals against one run alone (target within 1.5×).
 * The DSL is loaded and validated on every run, as the server does. Prints median / p95, the process
 * CPU per run (the figure that decides how many runs one Node process interleaves) and the machine
 * with its load; never asserts a time.
 * Run: npm run bench -- agent-runtime [runs=300] [latencyMs=50] [concurrent=50]
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { runCanvas, type ChatRequest, type RunEvent } from '../packages/agent-core/src/index.js';
import { chunk, fakePorts, FakeRetrieval, type Turn } from '../packages/agent-core/test/fakes.js';
import { dsl } from '../packages/agent-core/test/helpers.js';
import { machine, summarize } from './lib/stats.js';

const RUNS = Number(process.argv[2] ?? 300);
const LATENCY_MS = Number(process.argv[3] ?? 50);
const CONCURRENT = Number(process.argv[4] ?? 50);
const fmt = (ms: number) => `${ms.toFixed(3)} ms`;

/** begin → Retrieval → LLM → Switch → StringTransform → VariableAssigner → ListOperations → DataOperations → LLM → Message */
function flow() {
  return dsl(
    [
      { id: 'begin', name: 'begin', downstream: ['Retrieval:R'] },
      {
        id: 'Retrieval:R',
        name: 'Search',
        params: { query: 'sys.query', kb_ids: ['kb1'] },
        downstream: ['LLM:Draft'],
      },
      {
        id: 'LLM:Draft',
        name: 'Draft',
        params: {
          llm_id: 'm@F',
          sys_prompt: 'Use: {Retrieval:R@formalized_content}',
          prompts: [{ role: 'user', content: '{sys.query}' }],
        },
        downstream: ['Switch:S'],
      },
      {
        id: 'Switch:S',
        name: 'Has draft?',
        params: {
          conditions: [
            {
              logical_operator: 'and',
              items: [{ cpn_id: 'LLM:Draft@content', operator: 'not empty', value: '' }],
              to: ['StringTransform:T'],
            },
          ],
          end_cpn_ids: ['Message:Empty'],
        },
        downstream: ['StringTransform:T', 'Message:Empty'],
      },
      {
        id: 'StringTransform:T',
        name: 'Split',
        params: { method: 'split', split_ref: 'LLM:Draft@content', delimiters: [' '] },
        downstream: ['VariableAssigner:V'],
      },
      {
        id: 'VariableAssigner:V',
        name: 'Keep words',
        params: {
          variables: [
            { variable: 'env.words', operator: 'overwrite', parameter: 'StringTransform:T@result' },
          ],
        },
        downstream: ['ListOperations:L'],
      },
      {
        id: 'ListOperations:L',
        name: 'First words',
        params: { query: 'env.words', operations: 'topN', n: 5 },
        downstream: ['DataOperations:D'],
      },
      {
        id: 'DataOperations:D',
        name: 'Chunks',
        params: { query: ['Retrieval:R@json'], operations: 'select_keys', select_keys: ['docnm_kwd'] },
        downstream: ['LLM:Final'],
      },
      {
        id: 'LLM:Final',
        name: 'Final',
        params: {
          llm_id: 'm@F',
          sys_prompt: 'Words: {ListOperations:L@result}. Docs: {DataOperations:D@result}',
          prompts: [{ role: 'user', content: '{sys.query}' }],
        },
        downstream: ['Message:M'],
      },
      { id: 'Message:M', name: 'Reply', params: { content: ['{LLM:Final@content}'] } },
      { id: 'Message:Empty', name: 'Empty', params: { content: ['nothing'] } },
    ],
    { variables: { words: { name: 'words', type: 'array<string>', value: [] } } },
  );
}

const COMPONENTS_RUN = 10;
const ANSWER = ['The', ' draft', ' answer', ' has', ' a', ' few', ' words', ' in', ' it', '.'];

function ports(latencyMs: number) {
  return fakePorts((_req: ChatRequest): Turn => ({ text: ANSWER, delayMs: latencyMs || undefined }), {
    clock: undefined,
    ids: undefined,
    retrieval: new FakeRetrieval([chunk('c1', 'Passage one.'), chunk('c2', 'Passage two.', 'guide.md')]),
  });
}

async function oneRun(d: unknown, latencyMs: number): Promise<{ ms: number; events: RunEvent[] }> {
  const t0 = performance.now();
  const run = runCanvas({
    dsl: d,
    query: 'how does it work?',
    taskId: 'bench',
    ports: ports(latencyMs),
  });
  const events: RunEvent[] = [];
  for await (const e of run) events.push(e);
  const outcome = await run.outcome;
  if (outcome.status !== 'finished') throw new Error(`run ended ${outcome.status}: ${outcome.error}`);
  return { ms: performance.now() - t0, events };
}

/** Time the fakes alone: two model calls and one retrieval per run, consumed like the runtime does. */
async function fakesAlone(): Promise<number> {
  const p = ports(0);
  const t0 = performance.now();
  const { model } = await p.models.get('m@F', 'chat', { signal: new AbortController().signal });
  for (let i = 0; i < 2; i++)
    for await (const _ of model.stream(
      { messages: [{ role: 'user', content: 'x' }], options: {} },
      { signal: new AbortController().signal },
    ));
  await p.retrieval!.retrieve(
    {
      query: 'x',
      datasets: ['kb1'],
      memoryIds: [],
      from: 'dataset',
      similarityThreshold: 0.2,
      vectorSimilarityWeight: 0.5,
      topN: 8,
      topK: 1024,
      rerankId: '',
      useKg: false,
      crossLanguages: [],
      tocEnhance: false,
      metaDataFilter: {},
    },
    { signal: new AbortController().signal },
  );
  return performance.now() - t0;
}

async function overhead() {
  const d = flow();
  const first = await oneRun(d, 0);
  const started = first.events.filter((e) => 'event' in e && e.event === 'node_started').length;
  if (started !== COMPONENTS_RUN) throw new Error(`expected ${COMPONENTS_RUN} components, ran ${started}`);
  for (let i = 0; i < 30; i++) await oneRun(d, 0);
  const perComponent: number[] = [];
  const fakes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const f = await fakesAlone();
    const { ms } = await oneRun(d, 0);
    fakes.push(f);
    perComponent.push(Math.max(0, ms - f) / COMPONENTS_RUN);
  }
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < 100; i++) await oneRun(d, 0);
  const cpu = process.cpuUsage(cpu0);
  const wall = performance.now() - t0;
  const s = summarize(perComponent);
  const f = summarize(fakes);
  console.log(
    `1. Runtime overhead per component (${COMPONENTS_RUN}-component flow, ${RUNS} runs, zero-latency fakes; fakes' own time ${fmt(f.median)} per run subtracted)`,
  );
  console.log(`   median ${fmt(s.median)}   p95 ${fmt(s.p95)}   max ${fmt(s.max)}   (target < 2 ms)`);
  console.log(
    `   process CPU per run (fakes included): ${fmt((cpu.user + cpu.system) / 1000 / 100)} over ${fmt(wall / 100)} wall`,
  );
}

async function concurrency() {
  const d = flow();
  for (let i = 0; i < 5; i++) await oneRun(d, LATENCY_MS);
  const alone: number[] = [];
  for (let i = 0; i < 20; i++) alone.push((await oneRun(d, LATENCY_MS)).ms);
  const one = summarize(alone);
  const rounds = 5;
  const totals: number[] = [];
  let cpuMs = 0;
  for (let r = 0; r < rounds; r++) {
    const c0 = process.cpuUsage();
    const results = await Promise.all(Array.from({ length: CONCURRENT }, () => oneRun(d, LATENCY_MS)));
    const c = process.cpuUsage(c0);
    cpuMs += (c.user + c.system) / 1000;
    totals.push(...results.map((x) => x.ms));
  }
  const many = summarize(totals);
  const cpuPerRound = cpuMs / rounds;
  console.log(
    `2. ${CONCURRENT} concurrent runs of the ${COMPONENTS_RUN}-component flow, model latency ${LATENCY_MS} ms per call (2 calls per run), ${rounds} rounds`,
  );
  console.log(`   one run alone:   median ${fmt(one.median)}   p95 ${fmt(one.p95)}`);
  console.log(
    `   ${CONCURRENT} at once:      median ${fmt(many.median)}   p95 ${fmt(many.p95)}   max ${fmt(many.max)}`,
  );
  console.log(
    `   p95 (concurrent) / median (alone) = ${(many.p95 / one.median).toFixed(2)}×   (target within 1.5×)`,
  );
  // The runs interleave on one thread: with a core to itself the last of them would finish about one
  // run's latency plus the CPU the whole round needs.
  console.log(
    `   CPU used by a round of ${CONCURRENT}: ${fmt(cpuPerRound)} → on an otherwise idle core ≈ ${((one.median + cpuPerRound) / one.median).toFixed(2)}× (estimate, not measured)`,
  );
}

console.log(
  `Machine: ${machine()}, load average ${os.loadavg()[0].toFixed(1)} (other processes share these cores)\n`,
);
await overhead();
console.log('');
await concurrency();

/**
 * Chat completion latency (issue 5), against a zero-latency OpenAI stand-in and a 100k-chunk knowledge
 * base (chunks written straight into the real chunk index, 384-dim vectors):
 *  1. sequential: time from request to the first SSE event (retrieval + prompt assembly + the
 *     stand-in's first delta) and to the end of the stream;
 *  2. 50 concurrent conversations streaming at once: errors, p95 of the first event, wall time.
 * Two question mixes: "specific" (four words drawn uniformly from the vocabulary, like real questions
 * naming their subject) and "common" (four Zipf-frequent words that occur in most chunks — the
 * worst case for full-text candidate selection).
 * Prints figures and the machine; never asserts a time.
 *   Run: npm run bench -- chat [chunks=100000] [sequential=200] [concurrent=50]
 */
import { performance } from 'node:perf_hooks';
import { newUser, startTestServer } from '../apps/server/test/harness.js';
import { startOpenAIStandin } from '../apps/server/test/standins/index.js';
import {
  chunkRecord,
  createConversation,
  createDialog,
  createKb,
  wireModels,
} from '../apps/server/src/chat/test-fixtures.js';
import { machine, summarize } from './lib/stats.js';

const CHUNKS = Number(process.argv[2] ?? 100_000);
const SEQUENTIAL = Number(process.argv[3] ?? 200);
const CONCURRENT = Number(process.argv[4] ?? 50);
const WARMUP = 10;

/** A deterministic pseudo-random generator, so every run indexes the same corpus. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const rand = rng(42);
const syllables = [
  'ka',
  'lo',
  'mi',
  'ren',
  'tau',
  'vo',
  'shi',
  'pa',
  'dre',
  'ul',
  'ben',
  'cor',
  'fi',
  'gan',
  'hel',
  'jo',
];
const vocab = Array.from({ length: 6000 }, () =>
  Array.from(
    { length: 2 + Math.floor(rand() * 3) },
    () => syllables[Math.floor(rand() * syllables.length)],
  ).join(''),
);
/** Zipf-like word choice: frequent words are frequent, the tail is long. */
const word = () => vocab[Math.floor(vocab.length * rand() ** 2.2)];
const sentence = (n: number) => Array.from({ length: n }, word).join(' ');

interface Timing {
  headers: number;
  first: number;
  total: number;
  ok: boolean;
  /** Server-side split from the final event's debug text (ms). */
  retrieval?: number;
  assembly?: number;
}

function stage(text: string, name: string): number | undefined {
  const m = new RegExp(`- ${name}: ([0-9.]+)ms`).exec(text);
  return m ? Number(m[1]) : undefined;
}

async function ask(url: string, token: string, conversationId: string, question: string): Promise<Timing> {
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/conversation/completion`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: token },
    body: JSON.stringify({
      conversation_id: conversationId,
      messages: [{ role: 'user', content: question, id: 'q1' }],
    }),
  });
  const headers = performance.now() - t0;
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let first = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!first) first = performance.now() - t0;
    text += decoder.decode(value, { stream: true });
  }
  const total = performance.now() - t0;
  const ok =
    text.includes('"final":true') &&
    !text.includes('"code":500') &&
    text.endsWith('data:{"code":0,"message":"","data":true}\n\n');
  return {
    headers,
    first,
    total,
    ok,
    retrieval: stage(text, 'Retrieval'),
    assembly: stage(text, 'Prompt assembly'),
  };
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function main() {
  const llm = await startOpenAIStandin({
    reply: () => 'The answer is in the first document [ID:0]. Nothing more to add.',
  });
  const server = await startTestServer({ MODEL_MAX_RETRIES: '0' });
  try {
    const user = await newUser(server, 'bench');
    await wireModels(server, user, llm);
    const kbId = await createKb(server, user, 'Bench corpus');

    const index = server.ctx.chunkIndex;
    const tIndex = performance.now();
    const BATCH = 2000;
    for (let i = 0; i < CHUNKS; i += BATCH) {
      const records = Array.from({ length: Math.min(BATCH, CHUNKS - i) }, (_, k) =>
        chunkRecord(kbId, user.id, {
          content: `${sentence(40 + Math.floor(rand() * 40))} (${i + k})`,
          doc: `doc-${Math.floor((i + k) / 50)}.txt`,
        }),
      );
      await index.upsert(records);
    }
    const indexSeconds = (performance.now() - tIndex) / 1000;

    const dialogId = (
      await createDialog(server, user, {
        name: 'Bench',
        kb_ids: [kbId],
        prompt_config: { system: 'Answer from:\n{knowledge}' },
      })
    ).id;
    const uniform = () => vocab[Math.floor(rand() * vocab.length)];
    const mixes: Record<string, () => string> = {
      specific: () => `${uniform()} ${uniform()} ${uniform()} ${uniform()}?`,
      common: () => `${word()} ${word()} ${word()} ${word()}?`,
    };

    const conversations: string[] = [];
    const needed = WARMUP + 2 * (SEQUENTIAL + CONCURRENT);
    for (let i = 0; i < needed; i++) conversations.push(await createConversation(server, user, dialogId));
    let c = 0;
    for (let i = 0; i < WARMUP; i++) await ask(server.url, user.token, conversations[c++], mixes.specific());

    console.log(`machine: ${machine()}`);
    console.log(
      `database: ${server.ctx.db.dialect}; chunk index: ${index.type}; ${CHUNKS} chunks (384-dim vectors) indexed in ${indexSeconds.toFixed(1)} s`,
    );
    for (const [mix, question] of Object.entries(mixes)) {
      const seq: Timing[] = [];
      for (let i = 0; i < SEQUENTIAL; i++)
        seq.push(await ask(server.url, user.token, conversations[c++], question()));
      const t0 = performance.now();
      const conc = await Promise.all(
        Array.from({ length: CONCURRENT }, () =>
          ask(server.url, user.token, conversations[c++], question()).catch(() => ({
            headers: 0,
            first: 0,
            total: 0,
            ok: false,
          })),
        ),
      );
      const wall = performance.now() - t0;
      const s1 = summarize(seq.map((t) => t.first));
      const s1h = summarize(seq.map((t) => t.headers));
      const s1t = summarize(seq.map((t) => t.total));
      const s2 = summarize(conc.map((t) => t.first));
      const s2t = summarize(conc.map((t) => t.total));
      console.log(
        `[${mix} questions] sequential (${SEQUENTIAL} completions, ${seq.filter((t) => !t.ok).length} errors):`,
      );
      console.log(`  first SSE event  median ${fmt(s1.median)}  p95 ${fmt(s1.p95)}  max ${fmt(s1.max)}`);
      console.log(`  response headers median ${fmt(s1h.median)}  p95 ${fmt(s1h.p95)}`);
      const sr = summarize(seq.map((t) => t.retrieval ?? 0));
      const sa = summarize(seq.map((t) => t.assembly ?? 0));
      const so = summarize(seq.map((t) => t.first - (t.retrieval ?? 0)));
      console.log(
        `  of which retrieval (query embedding + hybrid search) median ${fmt(sr.median)}  p95 ${fmt(sr.p95)}`,
      );
      console.log(
        `  of which prompt assembly median ${fmt(sa.median)}  p95 ${fmt(sa.p95)}; everything but retrieval median ${fmt(so.median)}  p95 ${fmt(so.p95)}`,
      );
      console.log(`  whole stream     median ${fmt(s1t.median)}  p95 ${fmt(s1t.p95)}`);
      console.log(
        `[${mix} questions] concurrent (${CONCURRENT} conversations at once, ${conc.filter((t) => !t.ok).length} errors, wall ${fmt(wall)}):`,
      );
      console.log(`  first SSE event  median ${fmt(s2.median)}  p95 ${fmt(s2.p95)}  max ${fmt(s2.max)}`);
      console.log(`  whole stream     median ${fmt(s2t.median)}  p95 ${fmt(s2t.p95)}`);
    }
  } finally {
    await server.close();
    await llm.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

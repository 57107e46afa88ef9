import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import type { ChunkRecord } from '../chunk-index/chunk-index.js';
import { createKb } from '../modules/kb/test-support.js';
import { retrieval } from '../modules/chunk/test-support.js';

const WORDS = ['amber', 'basil', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'heron', 'ivory', 'juniper'];

/** Chunks made of the same ten words: a question of them matches (and scores) every chunk. */
function chunks(kbId: string, n: number): ChunkRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `t${i.toString(16).padStart(15, '0')}`,
    doc_id: `doc${Math.floor(i / 100)}`,
    kb_id: kbId,
    tenant_id: 'bench',
    docnm_kwd: `part ${Math.floor(i / 100)}.txt`,
    content_with_weight: Array.from({ length: 120 }, (_, k) => WORDS[(i * 7 + k * k) % WORDS.length]).join(
      ' ',
    ),
    important_kwd: [],
    question_kwd: [],
    tag_kwd: [],
    tag_feas: {},
    img_id: '',
    positions: [],
    available_int: 1,
    create_time: 1_700_000_000_000 + i,
    doc_type_kwd: null,
    mom_id: null,
    pagerank_fea: 0,
    vector: null,
  }));
}

/**
 * Searches of the embedded index run on search threads (chunk-index/search-pool.ts): a slow retrieval
 * does not hold the event loop, so a cheap request sent meanwhile is answered in its usual time.
 */
describe('retrieval off the event loop', () => {
  let server: TestServer;
  let alice: TestUser;
  let kbId: string;

  beforeAll(async () => {
    server = await startTestServer();
    alice = await newUser(server, 'alice');
    kbId = await createKb(server, alice.token, { name: 'Slow', embd_id: '' });
    const all = chunks(kbId, 6000);
    for (let i = 0; i < all.length; i += 1000) await server.ctx.chunkIndex.upsert(all.slice(i, i + 1000));
  }, 300_000);
  afterAll(async () => server.close());

  const slowQuestion = () =>
    retrieval(server, alice.token, { kb_id: [kbId], question: 'amber basil cedar delta ember fjord grove' });
  const kbList = async () => {
    const t = performance.now();
    const res = await call(server, '/v1/kb/list', { token: alice.token, body: {} });
    expect(res.body.code).toBe(0);
    return performance.now() - t;
  };

  it('answers kb/list while several slow retrievals are running', async () => {
    // Alone, one retrieval scores every chunk for every clause (nothing to prune: all words are common).
    const first = await slowQuestion();
    expect(first.code, first.message).toBe(0);
    expect(first.data!.chunks.length).toBeGreaterThan(0);
    let t = performance.now();
    await slowQuestion();
    const alone = performance.now() - t;

    t = performance.now();
    let running = true;
    const slow = Promise.all(Array.from({ length: 6 }, slowQuestion)).finally(() => {
      running = false;
    });
    const latencies: number[] = [];
    while (running) {
      latencies.push(await kbList());
      await new Promise((r) => setTimeout(r, 20));
    }
    const answers = await slow;
    const together = performance.now() - t;
    for (const a of answers) expect(a.code, a.message).toBe(0);
    // While six searches ran (each as long as `alone`), the list kept answering: many times, typically
    // in a fraction of the time one search holds a thread (on the event loop, each would wait for the
    // searches queued before it). The median, not the worst: the machine running the tests is shared.
    expect(latencies.length, `alone ${alone} ms, together ${together} ms`).toBeGreaterThanOrEqual(3);
    const median = [...latencies].sort((a, b) => a - b)[Math.floor(latencies.length / 2)];
    expect(
      median,
      `kb/list ${latencies.map((l) => l.toFixed(0)).join(', ')} ms; one search ${alone} ms`,
    ).toBeLessThan(Math.max(alone / 4, 25));
  }, 300_000);
});

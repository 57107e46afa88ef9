import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchRequest } from './chunk-index.js';
import { planQuery } from './query.js';
import { commonSplits, COMMON_CLAUSE_SHARE } from './sqlite-search.js';
import { chunk, tempIndex } from './test-helpers.js';

// 1,000 chunks: "zephyr" in every 25th (40 rows, under the 5 % cutoff), "orbit" in 580 (3 of every 5,
// but not in every 50th), so that half of the "zephyr" rows have "orbit" too.
const ROWS = 1000;
const hasZephyr = (i: number) => i % 25 === 0;
const hasOrbit = (i: number) => i % 5 < 3 !== (i % 50 === 0);
const vectorOf = (i: number) => Array.from({ length: 8 }, (_, d) => Math.sin(i * 0.7 + d * 1.3) + 0.1);

let t: ReturnType<typeof tempIndex>;
beforeAll(async () => {
  t = tempIndex();
  const words = ['harbor', 'violin', 'granite', 'meadow', 'lantern', 'copper', 'orchard'];
  await t.index.upsert(
    Array.from({ length: ROWS }, (_, i) =>
      chunk({
        id: `z${i.toString(16).padStart(15, '0')}`,
        content_with_weight: [
          words[i % 7],
          words[(i * 3) % 7],
          hasZephyr(i) ? 'zephyr' : '',
          hasOrbit(i) ? 'orbit' : '',
          `record ${i}`,
        ].join(' '),
        vector: vectorOf(i),
      }),
    ),
  );
});
afterAll(async () => {
  await t.close();
});

async function request(question: string, limit: number, withVector: boolean): Promise<SearchRequest> {
  const plan = await planQuery(question, (tokens) => t.index.termStats(tokens));
  if (!plan) throw new Error('no plan');
  return {
    filter: { kbIds: ['kb1'], available: 1 },
    text: plan.text,
    vector: withVector ? { values: vectorOf(0), topK: 1024, floor: 0 } : null,
    offset: 0,
    limit,
  };
}

const rowOf = (id: string) => parseInt(id.slice(1), 16);

describe('common clauses (CommonTermsQuery-style candidate enumeration)', () => {
  it('splits the clauses by document frequency against the 5 % cutoff', async () => {
    const req = await request('zephyr orbit', 30, true);
    expect(req.text.indexRows).toBe(ROWS);
    const [first, ...more] = commonSplits(req.text);
    expect(first.rare.map((c) => c.tokens.join(' ')).sort()).toEqual(['zephyr', 'zephyr orbit']);
    expect(first.common.map((c) => c.tokens.join(' '))).toEqual(['orbit']);
    expect(more).toEqual([]);
    expect(req.text.clauses.find((c) => c.tokens[0] === 'orbit')!.df).toBeGreaterThan(
      COMMON_CLAUSE_SHARE * ROWS,
    );
  });

  it('with a vector, only rows of the rare word are candidates, and the common word still scores them', async () => {
    const res = await t.index.search(await request('zephyr orbit', 30, true));
    expect(res.matched).toBe(40);
    expect(res.hits).toHaveLength(30);
    const scores = new Map<boolean, Set<number>>([
      [true, new Set()],
      [false, new Set()],
    ]);
    for (const h of res.hits) {
      const i = rowOf(h.chunk.id);
      expect(hasZephyr(i)).toBe(true);
      scores.get(hasOrbit(i))!.add(Number(h.textScore.toFixed(6)));
    }
    // Both kinds are in the window; the rows with the common word too score more (its boost was added).
    expect(scores.get(true)!.size).toBe(1);
    expect(scores.get(false)!.size).toBe(1);
    expect([...scores.get(true)!][0]).toBeGreaterThan([...scores.get(false)!][0]);
    // The window is in engine order: the query vector is row 0's, so row 0 leads.
    expect(rowOf(res.hits[0].chunk.id)).toBe(0);
  });

  it('enumerates every clause when the rare rows cannot fill the window', async () => {
    const res = await t.index.search(await request('zephyr orbit', 64, true));
    const either = Array.from({ length: ROWS }, (_, i) => i).filter((i) => hasZephyr(i) || hasOrbit(i));
    expect(res.matched).toBe(either.length);
    expect(res.hits).toHaveLength(64);
  });

  it('enumerates every clause without a vector (BM25 scores need every posting)', async () => {
    const res = await t.index.search(await request('zephyr orbit', 30, false));
    expect(res.matched).toBe(
      Array.from({ length: ROWS }, (_, i) => i).filter((i) => hasZephyr(i) || hasOrbit(i)).length,
    );
  });

  it('enumerates the rarest common clause when every clause is common', async () => {
    const req = await request('orbit record', 30, true);
    const [first] = commonSplits(req.text);
    expect(first.rare.map((c) => c.tokens.join(' '))).toEqual(['orbit record']);
    const res = await t.index.search(req);
    expect(res.hits).toHaveLength(30);
    for (const h of res.hits) expect(hasOrbit(rowOf(h.chunk.id))).toBe(true);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunk, tempIndex } from './test-helpers.js';

// Two KBs, 30,000 rows: "alpha" in all of them (past the 20,000-posting count cap), "beta" in every
// second row of the first KB, "gamma" in every tenth row of both.
let t: ReturnType<typeof tempIndex>;
beforeAll(async () => {
  t = tempIndex();
  const rows = (kb: string, n: number) =>
    Array.from({ length: n }, (_, i) =>
      chunk({
        kb_id: kb,
        content_with_weight: [
          'alpha',
          kb === 'kb1' && i % 2 === 0 ? 'beta' : '',
          i % 10 === 0 ? 'gamma' : '',
        ].join(' '),
      }),
    );
  for (const [kb, n] of [
    ['kb1', 20_000],
    ['kb2', 10_000],
  ] as const) {
    const all = rows(kb, n);
    for (let i = 0; i < all.length; i += 5000) t.index.upsertSync(all.slice(i, i + 5000));
  }
}, 120_000);
afterAll(async () => {
  await t.close();
});

describe('termStats', () => {
  it('counts rare terms exactly and extrapolates terms past the count cap over every partition', async () => {
    const stats = await t.index.termStats(['alpha', 'beta', 'gamma', 'delta']);
    expect(stats.total).toBe(30_000);
    expect(stats.df).toEqual({ alpha: 30_000, beta: 10_000, gamma: 3_000, delta: 0 });
  });

  it('keeps the extrapolation within the index after rows are removed', async () => {
    await t.index.deleteByKb('kb2');
    const stats = await t.index.termStats(['alpha']);
    expect(stats.total).toBe(20_000);
    expect(stats.df.alpha).toBeLessThanOrEqual(20_000);
    expect(stats.df.alpha).toBeGreaterThanOrEqual(19_000);
  });
});

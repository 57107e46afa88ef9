import { describe, expect, it } from 'vitest';
import { runSciFact, sciFactAvailable } from '../../../../bench/lib/scifact.js';

// Quality floor on a 500-document SciFact subset (bench/retrieval-quality.ts --limit 500 measured
// nDCG@10 0.831 and Recall@100 0.966 keyword-only). Skipped when ../shared/data/scifact is absent.
describe.skipIf(!sciFactAvailable())('SciFact 500-document subset (keyword-only)', () => {
  it('keeps nDCG@10 and Recall@100 above their floors', async () => {
    const run = await runSciFact({ limit: 500 });
    expect(run.docs).toBe(500);
    expect(run.queries).toBeGreaterThan(200);
    expect(run.ndcg10).toBeGreaterThanOrEqual(0.8);
    expect(run.recall100).toBeGreaterThanOrEqual(0.94);
  });
});

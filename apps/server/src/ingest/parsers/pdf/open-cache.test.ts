import { afterAll, describe, expect, it } from 'vitest';
import { makePdf, textPages } from '../../testing/make-pdf.js';
import { WorkerPool } from '../../../util/worker-pool.js';
import type { ParseChunkJob, ParseChunkResult } from '../../parse.worker.js';
import type { ParseOptions } from '../../types.js';
import { parsePdf } from './index.js';
import { OpenPdfCache } from './open-cache.js';
import { pdfOpenCount } from './open.js';

const PAGES = 40;
const TASK_PAGES = 12;
const ranges = Array.from({ length: Math.ceil(PAGES / TASK_PAGES) }, (_, i) => ({
  from: i * TASK_PAGES,
  to: i === Math.ceil(PAGES / TASK_PAGES) - 1 ? 100_000_000 : (i + 1) * TASK_PAGES,
}));
const pdf = makePdf(textPages(PAGES, 30));
const opts = (o: Partial<ParseOptions>): ParseOptions => ({ ext: 'pdf', fileName: 'forty.pdf', ...o });

describe('opened PDFs shared by the tasks of one document (in process)', () => {
  it('opens a 40-page PDF once for its four 12-page tasks, with the same sections as separate opens', async () => {
    const before = pdfOpenCount();
    const separate = [];
    for (const r of ranges) separate.push(await parsePdf(pdf, opts({ fromPage: r.from, toPage: r.to })));
    expect(pdfOpenCount() - before).toBe(4);

    const cache = new OpenPdfCache();
    const opener = cache.opener('kb1/doc1');
    const start = pdfOpenCount();
    const shared = [];
    for (const r of ranges) {
      shared.push(await parsePdf(pdf, opts({ fromPage: r.from, toPage: r.to, pdfOpener: opener })));
      // Kept open between tasks, closed once every page was read.
      expect(cache.size).toBe(r.to >= PAGES ? 0 : 1);
    }
    expect(pdfOpenCount() - start).toBe(1);
    expect(shared).toEqual(separate);
    expect(separate.flatMap((d) => d.sections).length).toBeGreaterThanOrEqual(PAGES);
  });

  it('reopens a replaced file, and closes a document whose parse failed', async () => {
    const cache = new OpenPdfCache();
    const other = makePdf(textPages(PAGES, 30, 'Replaced'));
    const start = pdfOpenCount();
    await parsePdf(pdf, opts({ fromPage: 0, toPage: 12, pdfOpener: cache.opener('kb1/doc2') }));
    // Same blob key, different bytes: never served the stale document.
    const replaced = await parsePdf(
      other,
      opts({ fromPage: 12, toPage: 24, pdfOpener: cache.opener('kb1/doc2') }),
    );
    expect(pdfOpenCount() - start).toBe(2);
    expect(replaced.sections.map((s) => s.text).join(' ')).toMatch(/Replaced/);
    await cache.clear();

    const failing = parsePdf(
      pdf,
      opts({
        fromPage: 0,
        toPage: 12,
        pdfOpener: cache.opener('kb1/doc3'),
        onProgress: (fraction) => {
          if (fraction > 0.5) throw new Error('cancelled');
        },
      }),
    );
    await expect(failing).rejects.toThrow('cancelled');
    expect(cache.size).toBe(0);
  });

  it('evicts the least recently used document beyond its entry budget', async () => {
    const cache = new OpenPdfCache({ maxEntries: 2 });
    for (const key of ['a', 'b', 'c']) {
      const lease = await cache.acquire(key, pdf);
      await lease.release({ from: 0, to: 1 });
    }
    expect(cache.size).toBe(2);
    const start = pdfOpenCount();
    await (await cache.acquire('c', pdf)).release({ from: 1, to: 2 });
    await (await cache.acquire('b', pdf)).release({ from: 1, to: 2 });
    expect(pdfOpenCount() - start).toBe(0);
    await (await cache.acquire('a', pdf)).release({ from: 1, to: 2 });
    expect(pdfOpenCount() - start).toBe(1);
    await cache.clear();
    expect(cache.size).toBe(0);
  });
});

// Real parses in child processes: slow on a loaded shared machine.
describe('opened PDFs shared through the parse worker pool (child processes)', { timeout: 240_000 }, () => {
  const pools: WorkerPool[] = [];
  const newPool = (size: number) => {
    const pool = new WorkerPool({
      entry: 'ingest/parse.worker',
      size,
      isolation: 'process',
      maxHeapMb: 512,
      defaultTimeoutMs: 60_000,
    });
    pools.push(pool);
    return pool;
  };
  afterAll(async () => {
    for (const p of pools) await p.close();
  });
  const job = (r: { from: number; to: number }, docKey?: string): ParseChunkJob => ({
    bytes: pdf,
    ext: 'pdf',
    fileName: 'forty.pdf',
    fromPage: r.from,
    toPage: r.to,
    parserId: 'naive',
    config: { chunk_token_num: 128 },
    language: 'English',
    docKey,
  });
  type Stats = { pdfOpens: number; openPdfs: number };

  it('one worker: four tasks of one document → one open (four without a document key), same chunks', async () => {
    const pool = newPool(1);
    const plain = await Promise.all(ranges.map((r) => pool.run<ParseChunkResult>('parse-chunk', job(r))));
    const afterPlain = await pool.run<Stats>('stats', null);
    expect(afterPlain.pdfOpens).toBe(4);
    const shared = await Promise.all(
      ranges.map((r) => pool.run<ParseChunkResult>('parse-chunk', job(r, 'kb/doc'), { affinity: 'kb/doc' })),
    );
    const after = await pool.run<Stats>('stats', null);
    expect(after.pdfOpens - afterPlain.pdfOpens).toBe(1);
    expect(after.openPdfs).toBe(0);
    expect(shared).toEqual(plain);
    expect(shared.flatMap((r) => r.chunks).length).toBeGreaterThan(4);
  });

  it('two workers: at most one open per worker, the probe included', async () => {
    const pool = newPool(2);
    await pool.warm();
    const probe = await pool.run<{ pageCount: number }>(
      'probe',
      { bytes: pdf, ext: 'pdf', docKey: 'kb/doc' },
      { affinity: 'kb/doc' },
    );
    expect(probe.pageCount).toBe(PAGES);
    await Promise.all(
      ranges.map((r) => pool.run<ParseChunkResult>('parse-chunk', job(r, 'kb/doc'), { affinity: 'kb/doc' })),
    );
    // Both workers are free: two stats jobs started together land on different workers.
    const stats = await Promise.all([pool.run<Stats>('stats', null), pool.run<Stats>('stats', null)]);
    for (const s of stats) expect(s.pdfOpens).toBeLessThanOrEqual(1);
    expect(stats[0].pdfOpens + stats[1].pdfOpens).toBeGreaterThanOrEqual(1);
  });

  it('sequential tasks of one document stay on the worker that opened it', async () => {
    const pool = newPool(2);
    await pool.warm();
    for (const r of ranges)
      await pool.run<ParseChunkResult>('parse-chunk', job(r, 'kb/seq'), { affinity: 'kb/seq' });
    const stats = await Promise.all([pool.run<Stats>('stats', null), pool.run<Stats>('stats', null)]);
    expect(stats.map((s) => s.pdfOpens).sort()).toEqual([0, 1]);
    expect(stats.map((s) => s.openPdfs)).toEqual([0, 0]);
  });
});

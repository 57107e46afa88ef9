import { afterAll, describe, expect, it } from 'vitest';
import { makePdf, textPages } from '../ingest/testing/make-pdf.js';
import { WorkerJobError, WorkerPool } from './worker-pool.js';

const job = (bytes: Buffer) => ({
  bytes,
  ext: 'pdf',
  fileName: 'a.pdf',
  fromPage: 0,
  toPage: 100000000,
  parserId: 'naive',
  config: { chunk_token_num: 128 },
  language: 'English',
});

describe('parse worker pool (child processes)', () => {
  const pool = new WorkerPool({
    entry: 'ingest/parse.worker',
    size: 1,
    isolation: 'process',
    maxHeapMb: 256,
    defaultTimeoutMs: 60_000,
  });
  const big = makePdf(textPages(150, 40));
  afterAll(async () => pool.close());

  it('runs jobs and relays progress in order', async () => {
    const seen: string[] = [];
    const out = await pool.run<{ chunks: unknown[]; tokens: number[] }>(
      'parse-chunk',
      job(makePdf(textPages(3, 10))),
      {
        onProgress: (_f, m) => void seen.push(m),
      },
    );
    expect(out.chunks.length).toBeGreaterThan(0);
    expect(out.tokens).toHaveLength(out.chunks.length);
    expect(seen.at(-1)).toBe('Finish parsing.');
  });

  it('turns a worker that dies mid-job (a native crash) into a readable job error and keeps serving', async () => {
    const running = pool.run('parse-chunk', job(big));
    await new Promise((r) => setTimeout(r, 300));
    const [pid] = pool.pids();
    process.kill(pid, 'SIGSEGV');
    const err = await running.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkerJobError);
    expect((err as WorkerJobError).reason).toBe('crash');
    expect((err as Error).message).toMatch(
      /^The parser stopped unexpectedly while reading this file \(signal SIGSEGV\)\.$/,
    );
    expect(await pool.run('ping', null)).toBe(true);
    expect(pool.pids()[0]).not.toBe(pid);
  });

  it('stops a job over its time limit, and answers an abandoned job at once', async () => {
    const slow = await pool.run('parse-chunk', job(big), { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(slow).toBeInstanceOf(WorkerJobError);
    expect((slow as Error).message).toBe('Parsing took longer than 0.2s and was stopped.');
    const controller = new AbortController();
    const pending = pool.run('parse-chunk', job(big), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled by the user')), 100);
    const t0 = Date.now();
    await expect(pending).rejects.toThrow('cancelled by the user');
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(await pool.run('ping', null)).toBe(true);
  });

  it('reports parser refusals as errors with their readable message', async () => {
    const err = await pool
      .run('text', { bytes: Buffer.from('%PDF-1.4 truncated'), ext: 'pdf', fileName: 'x.pdf' })
      .catch((e: unknown) => e);
    expect((err as Error).name).toBe('ParseError');
    expect((err as Error).message).toMatch(/PDF/);
  });
});

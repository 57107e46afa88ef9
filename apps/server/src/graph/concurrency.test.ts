import { describe, expect, it } from 'vitest';
import { mapConcurrent } from './concurrency.js';
import { sleep } from './test-fixtures.js';

describe('mapConcurrent', () => {
  it('keeps results in input order whatever the completion order, with at most `limit` pending', async () => {
    let pending = 0;
    let most = 0;
    const out = await mapConcurrent([30, 5, 20, 1, 10, 15], 3, async (ms, i) => {
      most = Math.max(most, ++pending);
      await sleep(ms);
      pending--;
      return i * 10;
    });
    expect(out).toEqual([0, 10, 20, 30, 40, 50]);
    expect(most).toBe(3);
  });

  it('stops handing out work after the first error and settles only when running calls have', async () => {
    const started: number[] = [];
    let running = 0;
    const err = await mapConcurrent([0, 1, 2, 3, 4, 5, 6, 7], 2, async (i) => {
      started.push(i);
      running++;
      await sleep(i === 1 ? 5 : 20);
      running--;
      if (i === 1) throw new Error('boom');
      return i;
    }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('boom');
    expect(started).toEqual([0, 1]);
    expect(running).toBe(0);
  });

  it('rejects with the abort reason and starts nothing after the signal fires', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const p = mapConcurrent(
      [1, 2, 3, 4],
      1,
      async (i) => {
        started.push(i);
        await sleep(10);
        if (i === 1) controller.abort(new Error('cancelled by user'));
        return i;
      },
      controller.signal,
    );
    await expect(p).rejects.toThrow('cancelled by user');
    expect(started).toEqual([1]);
  });

  it('handles an empty list', async () => {
    expect(await mapConcurrent([], 4, async () => 1)).toEqual([]);
  });
});

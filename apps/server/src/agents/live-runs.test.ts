/** A run's feed read in batches: events pushed in the same turn of the event loop come together. */
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@lectern/agent-core';
import { RunFeed } from './live-runs.js';

const ev = (n: number) => ({ code: n, message: `e${n}`, data: false }) as RunEvent;
const nextTurn = () => new Promise((r) => setImmediate(r));

async function collect(feed: RunFeed): Promise<number[][]> {
  const batches: number[][] = [];
  for await (const b of feed.followBatches()) batches.push(b.map((e) => (e as { code: number }).code));
  return batches;
}

describe('RunFeed.followBatches', () => {
  it('gives the events of one turn as one batch, later ones as the next, every event once', async () => {
    const feed = new RunFeed();
    const reading = collect(feed);
    feed.push(ev(1));
    feed.push(ev(2));
    feed.push(ev(3));
    await nextTurn();
    await nextTurn();
    feed.push(ev(4));
    await nextTurn();
    await nextTurn();
    feed.push(ev(5));
    feed.end();
    expect(await reading).toEqual([[1, 2, 3], [4], [5]]);
  });

  it('starts a late reader with everything so far, and ends an ended feed', async () => {
    const feed = new RunFeed();
    feed.push(ev(1));
    feed.push(ev(2));
    feed.end();
    expect(await collect(feed)).toEqual([[1, 2]]);
    const empty = new RunFeed();
    empty.end();
    expect(await collect(empty)).toEqual([]);
  });

  it('matches follow() event for event', async () => {
    const feed = new RunFeed();
    const batched = collect(feed);
    const single = (async () => {
      const all: number[] = [];
      for await (const e of feed.follow()) all.push((e as { code: number }).code);
      return all;
    })();
    for (let i = 0; i < 20; i++) {
      feed.push(ev(i));
      if (i % 3 === 0) await nextTurn();
    }
    feed.end();
    expect((await batched).flat()).toEqual(await single);
  });
});

describe('RunFeed.eventsJson', () => {
  it('is the JSON of all events so far, extended as events come', () => {
    const feed = new RunFeed();
    expect(feed.eventsJson()).toBe('[]');
    feed.push(ev(1));
    expect(feed.eventsJson()).toBe(JSON.stringify(feed.events));
    expect(feed.eventsJson()).toBe(JSON.stringify(feed.events)); // asked twice, nothing new
    const tricky = {
      event: 'message',
      data: { content: 'quote " backslash \\ newline \n ünïcode 😀', skipped: undefined },
    } as unknown as RunEvent;
    feed.push(tricky);
    feed.push(ev(3));
    expect(feed.eventsJson()).toBe(JSON.stringify(feed.events));
    expect(JSON.parse(feed.eventsJson())).toEqual(JSON.parse(JSON.stringify(feed.events)));
  });
});

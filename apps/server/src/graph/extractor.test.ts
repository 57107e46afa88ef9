import { describe, expect, it } from 'vitest';
import { extractGraph, extractionFailure, type ChunkInput } from './extractor.js';
import { CONTINUE_PROMPT, LOOP_PROMPT } from './prompts.js';
import {
  ScriptedModel,
  capitalizedWordsScript,
  chunkTextOf,
  entity,
  records,
  relation,
} from './test-fixtures.js';

const TYPES = ['person', 'organization'];

function chunks(n: number): ChunkInput[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `c${i}`,
    docId: 'd1',
    text: `Alice met Bob${i} today.`,
  }));
}

describe('extractGraph', () => {
  it('light: one call per chunk, records parsed, usage summed, order kept', async () => {
    const model = new ScriptedModel(capitalizedWordsScript);
    const res = await extractGraph(chunks(3), { model, entityTypes: TYPES, method: 'light', concurrency: 2 });
    expect(model.calls).toHaveLength(3);
    expect(res.chunks.map((c) => c.chunkId)).toEqual(['c0', 'c1', 'c2']);
    expect(res.chunks[1].entities.map((e) => e.name)).toEqual(['ALICE', 'BOB1']);
    expect(res.chunks[1].relations[0]).toMatchObject({ source: 'ALICE', target: 'BOB1', strength: 2 });
    expect(res.stats).toMatchObject({ chunks: 3, calls: 3, entities: 6, relations: 3, failedCalls: 0 });
    const expectedTotal = model.calls.reduce(
      (n, msgs) => n + msgs.reduce((m, x) => m + x.content.length, 0),
      0,
    );
    expect(res.usage.promptTokens).toBe(expectedTotal);
    expect(res.usage.totalTokens).toBeGreaterThan(res.usage.promptTokens);
    // The system prompt names the configured types.
    expect(model.calls[0][0].content).toContain('[person, organization]');
  });

  it('general: gleans with "MANY entities were missed" and stops when the loop check says NO', async () => {
    let gleanings = 0;
    const model = new ScriptedModel((messages) => {
      const last = messages[messages.length - 1].content;
      if (last === CONTINUE_PROMPT) {
        gleanings++;
        return records(entity(`Extra${gleanings}`, 'person', 'found late'));
      }
      if (last === LOOP_PROMPT) return gleanings < 2 ? 'YES' : 'NO';
      return records(entity('Alice', 'person', 'first pass'));
    });
    const res = await extractGraph([{ id: 'c', docId: 'd', text: 'Alice' }], {
      model,
      entityTypes: TYPES,
      method: 'general',
      concurrency: 1,
      maxGleanings: 5,
    });
    expect(res.chunks[0].entities.map((e) => e.name)).toEqual(['ALICE', 'EXTRA1', 'EXTRA2']);
    expect(res.stats.gleaningRounds).toBe(2);
    // extract, continue, loop(YES), continue, loop(NO)
    expect(model.calls).toHaveLength(5);
    expect(CONTINUE_PROMPT).toMatch(/^MANY entities/);
    // The continuation sees the conversation so far.
    expect(model.calls[1].map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
  });

  it('general: gleaning is bounded by maxGleanings even if the model always says YES', async () => {
    const model = new ScriptedModel((messages) =>
      messages[messages.length - 1].content === LOOP_PROMPT ? 'YES' : records(entity('Alice', 'person', 'x')),
    );
    const res = await extractGraph([{ id: 'c', docId: 'd', text: 'x' }], {
      model,
      entityTypes: TYPES,
      method: 'general',
      concurrency: 1,
      maxGleanings: 3,
    });
    expect(res.stats.gleaningRounds).toBe(3);
    expect(model.calls).toHaveLength(1 + 3 + 2);
  });

  it('counts failed, empty and malformed answers and keeps going', async () => {
    const model = new ScriptedModel((messages) => {
      const text = chunkTextOf(messages);
      if (text === 'fail') throw new Error('HTTP 500 upstream');
      if (text === 'empty') return '   ';
      if (text === 'junk') return '("entity"<|>broken)##("entity"<|>Carol<|>person<|>ok)';
      return records(entity('Dave', 'person', 'fine'), relation('Dave', 'Carol', 'knows', 'k', 3));
    });
    const input = ['fail', 'empty', 'junk', 'good'].map((t, i) => ({ id: `c${i}`, docId: 'd', text: t }));
    const res = await extractGraph(input, { model, entityTypes: TYPES, method: 'light', concurrency: 4 });
    expect(res.stats).toMatchObject({
      failedCalls: 1,
      emptyAnswers: 1,
      malformedRecords: 1,
      entities: 2,
      relations: 1,
    });
    expect(res.stats.lastError).toBe('HTTP 500 upstream');
    expect(extractionFailure(res.stats)).toBeNull();
  });

  it('reports a failure when nothing at all could be extracted because of the model', async () => {
    const model = new ScriptedModel(() => {
      throw new Error('connection refused');
    });
    const res = await extractGraph(chunks(3), { model, entityTypes: TYPES, method: 'light', concurrency: 2 });
    expect(res.stats.failedCalls).toBe(3);
    expect(extractionFailure(res.stats)).toBe(
      'Knowledge graph extraction produced nothing from 3 chunks: 3 of 3 model calls failed (last error: connection refused)',
    );
  });

  it('stops at once when the signal aborts', async () => {
    const controller = new AbortController();
    const model = new ScriptedModel(capitalizedWordsScript, 30);
    setTimeout(() => controller.abort(), 45);
    const started = performance.now();
    await expect(
      extractGraph(chunks(40), {
        model,
        entityTypes: TYPES,
        method: 'light',
        concurrency: 2,
        signal: controller.signal,
      }),
    ).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(400);
    expect(model.calls.length).toBeLessThan(10);
  });

  it('keeps the configured concurrency busy: max in flight reached, no serial gaps', async () => {
    const latency = 40;
    const n = 23;
    for (const c of [1, 4, 8]) {
      const model = new ScriptedModel(capitalizedWordsScript, latency);
      const t0 = performance.now();
      await extractGraph(chunks(n), { model, entityTypes: TYPES, method: 'light', concurrency: c });
      const elapsed = performance.now() - t0;
      const ideal = Math.ceil(n / c) * latency;
      expect(model.maxInFlight).toBe(c);
      // ceil(n/c) waves of `latency`, with only scheduling slack (timers fire ≥ their delay).
      expect(elapsed).toBeGreaterThanOrEqual(ideal - 5);
      expect(elapsed).toBeLessThan(ideal * 1.5 + 30);
      // No gaps: while work remained, a finishing call was replaced at once (the next call starts
      // within a few ms of some call ending), and `c` calls were open at every wave but the last.
      const starts = model.spans.map((s) => s.start).sort((a, b) => a - b);
      const ends = model.spans.map((s) => s.end).sort((a, b) => a - b);
      for (const s of starts.slice(c)) {
        const gap = Math.min(...ends.map((e) => Math.abs(s - e)));
        expect(gap).toBeLessThan(10);
      }
    }
  });
});

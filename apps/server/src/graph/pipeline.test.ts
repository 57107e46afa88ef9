import { describe, expect, it } from 'vitest';
import { exportKbGraph, importKbGraph } from './kb-graph.js';
import { runGraphRag, type GraphRagConfig } from './pipeline.js';
import { ScriptedModel, capitalizedWordsScript, chunkTextOf } from './test-fixtures.js';

const CONFIG: GraphRagConfig = { entity_types: ['person'], method: 'light' };
const doc = (id: string, ...texts: string[]) => ({
  id,
  chunks: texts.map((text, i) => ({ id: `${id}-${i}`, text })),
});

/** Extraction through the capitalized-words script; report prompts get a JSON report. */
function model() {
  return new ScriptedModel((messages, options) => {
    const prompt = messages[0].content;
    if (prompt.startsWith('You are an analyst'))
      return '{"title": "Group", "summary": "People who meet.", "rating": 5, "findings": []}';
    if (prompt.includes('same real-world thing')) return 'Question 1: yes';
    void options;
    return capitalizedWordsScript(messages);
  });
}

describe('runGraphRag', () => {
  it('extracts, merges, ranks and reports; progress is logged', async () => {
    const log: string[] = [];
    const res = await runGraphRag(
      {
        documents: [doc('A', 'Alice met Bob.', 'Bob met Carol.'), doc('B', 'Carol met Dave.')],
        config: { ...CONFIG, community: true },
      },
      { model: model(), concurrency: 3, onProgress: (_p, msg) => log.push(msg) },
    );
    expect(res.graph.nodes().sort()).toEqual(['ALICE', 'BOB', 'CAROL', 'DAVE']);
    expect(res.graph.getNodeAttribute('CAROL', 'source_id')).toEqual(['A-1', 'B-0']);
    expect(res.graph.getNodeAttribute('BOB', 'pagerank')).toBeGreaterThan(
      res.graph.getNodeAttribute('ALICE', 'pagerank'),
    );
    expect([...res.subgraphs.keys()]).toEqual(['A', 'B']);
    expect(res.communities.length).toBeGreaterThan(0);
    expect(res.reports[0]).toMatchObject({ title: 'Group' });
    expect(res.extraction).toMatchObject({ chunks: 3, entities: 6, relations: 3 });
    expect(res.usage.totalTokens).toBeGreaterThan(0);
    expect(log[0]).toBe(
      'Start to extract entities and relations from 3 chunks of 2 documents (light, 3 model calls at once).',
    );
    expect(log.some((l) => l.startsWith('Extraction done: 6 entities, 3 relations from 3 chunks'))).toBe(
      true,
    );
    expect(log.some((l) => /^Wrote \d+ community reports/.test(l))).toBe(true);
  });

  it('is incremental: a new document is the only one extracted; a removed one takes its part away', async () => {
    const first = await runGraphRag(
      { documents: [doc('A', 'Alice met Bob.')], config: CONFIG },
      { model: model(), concurrency: 2 },
    );
    const stored = JSON.stringify(exportKbGraph(first.graph));

    const m = model();
    const second = await runGraphRag(
      { documents: [doc('B', 'Bob met Carol.')], existing: importKbGraph(stored), config: CONFIG },
      { model: m, concurrency: 2 },
    );
    expect(m.calls.map(chunkTextOf)).toEqual(['Bob met Carol.']);
    expect(second.graph.nodes().sort()).toEqual(['ALICE', 'BOB', 'CAROL']);
    expect(second.changed.nodes.sort()).toEqual(['BOB', 'CAROL']);

    const third = await runGraphRag(
      {
        documents: [],
        existing: importKbGraph(JSON.stringify(exportKbGraph(second.graph))),
        removedDocIds: ['A'],
        config: CONFIG,
      },
      { model: model(), concurrency: 2 },
    );
    expect(third.graph.nodes().sort()).toEqual(['BOB', 'CAROL']);
    expect(third.removedNodes).toEqual(['ALICE']);
    expect(third.graph.getNodeAttribute('BOB', 'source_id')).toEqual(['B-0']);
  });

  it('fails with a clear message when the model gives nothing at all, leaving the input graph untouched', async () => {
    const first = await runGraphRag(
      { documents: [doc('A', 'Alice met Bob.')], config: CONFIG },
      { model: model(), concurrency: 1 },
    );
    const stored = JSON.stringify(exportKbGraph(first.graph));
    const broken = new ScriptedModel(() => {
      throw new Error('401 invalid api key');
    });
    await expect(
      runGraphRag(
        { documents: [doc('B', 'Bob met Carol.')], existing: importKbGraph(stored), config: CONFIG },
        { model: broken, concurrency: 2 },
      ),
    ).rejects.toThrow(
      'Knowledge graph extraction produced nothing from 1 chunks: 1 of 1 model calls failed (last error: 401 invalid api key)',
    );
    // The stored graph is what the caller keeps; it was only read.
    expect(importKbGraph(stored).order).toBe(2);
  });

  it('runs entity resolution when configured', async () => {
    const res = await runGraphRag(
      { documents: [doc('A', 'Jonathan met Jonathon.')], config: { ...CONFIG, resolution: true } },
      { model: model(), concurrency: 1 },
    );
    expect(res.resolution).toMatchObject({
      candidates: 1,
      merges: [{ kept: 'JONATHAN', merged: ['JONATHON'] }],
    });
    expect(res.graph.nodes()).toEqual(['JONATHAN']);
    expect(res.graph.size).toBe(0);
    // Nothing was stored before this run, so no stored record has to go.
    expect(res.removedNodes).toEqual([]);
  });
});

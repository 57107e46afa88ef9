import { describe, expect, it } from 'vitest';
import { RAPTOR_DEFAULT_PROMPT } from '@lectern/shared';
import type { GraphEmbedder } from '../graph/ports.js';
import { ScriptedModel } from '../graph/test-fixtures.js';
import { countTokens } from '../graph/tokens.js';
import type { ClusterOptions, LayerClustering } from './cluster.js';
import { gaussian, seededRandom } from './random.js';
import { buildRaptorTree, clusterPrompt, type RaptorChunk, type RaptorSettings } from './raptor.js';
import { raptorSkipLine, raptorSkipMessage, raptorSkipReason, type RaptorSkipInput } from './skip.js';

const SETTINGS: RaptorSettings = {
  prompt: RAPTOR_DEFAULT_PROMPT,
  max_token: 256,
  threshold: 0.1,
  max_cluster: 64,
  random_seed: 0,
};

/** Embeds a text as a seeded random vector of its hash: deterministic, no structure needed here. */
const embedder: GraphEmbedder & { calls: string[][] } = {
  calls: [],
  async embed(texts) {
    this.calls.push(texts);
    return {
      vectors: texts.map((t) => {
        let h = 0;
        for (const ch of t) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
        const r = seededRandom(h);
        return Array.from({ length: 8 }, () => gaussian(r));
      }),
    };
  },
};

/** Summaries name the first line of each paragraph they got, so the tree is visible in the text. */
function summarizer() {
  return new ScriptedModel((messages) => {
    const content =
      /Paragraphs as following:\n\s*([\s\S]*)\nThe above is/.exec(messages[1].content)?.[1] ?? '';
    return `S(${content
      .split('\n')
      .map((l) => l.split(' ')[0])
      .join('+')})`;
  });
}

/** Leaves in `groups` tight groups (far apart), so clustering is unambiguous. */
function leaves(groups: number, per: number): RaptorChunk[] {
  const random = seededRandom(9);
  const centers = Array.from({ length: groups }, () =>
    Array.from({ length: 16 }, () => gaussian(random) * 10),
  );
  return Array.from({ length: groups * per }, (_, i) => ({
    id: `c${i}`,
    text: `L${i} leaf text of group ${i % groups}`,
    vector: centers[i % groups].map((c) => c + gaussian(random) * 0.1),
  }));
}

/** A clustering stand-in that groups by the leaf text's group number (tests the tree mechanics alone). */
function byGroup(chunks: RaptorChunk[]) {
  const groupOf = new Map(
    chunks.map((c) => [c.vector.join(','), Number(/group (\d+)/.exec(c.text)?.[1] ?? 0)]),
  );
  return (vectors: number[][], _opts: ClusterOptions): LayerClustering => {
    const raw = vectors.map((v) => groupOf.get(v.join(',')) ?? 0);
    const ids = [...new Set(raw)];
    return {
      labels: raw.map((r) => ids.indexOf(r)),
      clusters: ids.length,
      chosenK: ids.length,
      timings: { umapMs: 0, gmmMs: 0 },
    };
  };
}

describe('buildRaptorTree', () => {
  it('summarizes clusters layer by layer down to one root; summaries cite their chunks', async () => {
    const chunks = leaves(3, 4);
    const model = summarizer();
    const log: string[] = [];
    const res = await buildRaptorTree(chunks, SETTINGS, {
      model,
      embedder,
      concurrency: 3,
      cluster: byGroup(chunks),
      onProgress: (_p, m) => log.push(m),
    });
    expect(res.layerSizes).toEqual([12, 3, 1]);
    const layer1 = res.summaries.filter((s) => s.layer === 1);
    expect(layer1.map((s) => s.childIds)).toEqual([
      ['c0', 'c3', 'c6', 'c9'],
      ['c1', 'c4', 'c7', 'c10'],
      ['c2', 'c5', 'c8', 'c11'],
    ]);
    expect(layer1[0].text).toBe('S(L0+L3+L6+L9)');
    const root = res.summaries.find((s) => s.layer === 2);
    expect(root?.childIds).toEqual(layer1.map((s) => s.id));
    expect(root?.sourceChunkIds).toHaveLength(12);
    expect(root?.text).toBe('S(S(L0+L3+L6+L9)+S(L1+L4+L7+L10)+S(L2+L5+L8+L11))');
    expect(res.summaries.every((s) => /^[0-9a-f]{16}$/.test(s.id) && s.vector.length === 8)).toBe(true);
    expect(log).toEqual(['Cluster one layer: 12 -> 3', 'Cluster one layer: 3 -> 1']);
    // The KB prompt is used as given, with the system line RAGFlow sends, answer limited to max_token.
    expect(model.calls[0][0]).toEqual({ role: 'system', content: "You're a helpful assistant." });
    expect(model.calls[0][1].content.startsWith('Please summarize the following paragraphs.')).toBe(true);
    expect(res.usage.totalTokens).toBeGreaterThan(0);
  });

  it('with real clustering (UMAP + GMM) the tree is the same for the same seed', async () => {
    // 45 leaves: at most 45/13 = 3 clusters over 12 UMAP dimensions (cluster.ts).
    const chunks = leaves(3, 15);
    const run = () =>
      buildRaptorTree(
        chunks,
        { ...SETTINGS, random_seed: 5 },
        { model: summarizer(), embedder, concurrency: 4 },
      );
    const [a, b] = [await run(), await run()];
    expect(a.summaries.map((s) => [s.layer, s.childIds, s.text])).toEqual(
      b.summaries.map((s) => [s.layer, s.childIds, s.text]),
    );
    expect(a.layerSizes[a.layerSizes.length - 1]).toBe(1);
    // The three groups are found at the first layer.
    expect(a.layerSizes[1]).toBe(3);
  });

  it('two nodes are summarized directly; one or none give no tree', async () => {
    const two = leaves(1, 2);
    const res = await buildRaptorTree(two, SETTINGS, { model: summarizer(), embedder, concurrency: 1 });
    expect(res.layerSizes).toEqual([2, 1]);
    expect(res.summaries[0].childIds).toEqual(['c0', 'c1']);
    expect(
      (await buildRaptorTree(two.slice(0, 1), SETTINGS, { model: summarizer(), embedder, concurrency: 1 }))
        .summaries,
    ).toEqual([]);
  });

  it('a failed summary skips its cluster; no summary at all fails with a clear message', async () => {
    const chunks = leaves(3, 2);
    const flaky = new ScriptedModel((m) => {
      if (m[1].content.includes('L0 ')) throw new Error('HTTP 500');
      return 'summary';
    });
    const res = await buildRaptorTree(chunks, SETTINGS, {
      model: flaky,
      embedder,
      concurrency: 2,
      cluster: byGroup(chunks),
    });
    expect(res.failedSummaries).toBe(1);
    expect(res.layerSizes.slice(0, 2)).toEqual([6, 2]);
    const dead = new ScriptedModel(() => '');
    await expect(
      buildRaptorTree(chunks, SETTINGS, { model: dead, embedder, concurrency: 2, cluster: byGroup(chunks) }),
    ).rejects.toThrow('RAPTOR failed: the chat model gave no summary for any of 3 clusters');
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    const chunks = leaves(3, 2);
    const slow = new ScriptedModel(() => 'x', 50);
    setTimeout(() => controller.abort(), 10);
    await expect(
      buildRaptorTree(chunks, SETTINGS, {
        model: slow,
        embedder,
        concurrency: 1,
        cluster: byGroup(chunks),
        signal: controller.signal,
      }),
    ).rejects.toThrow();
    expect(slow.calls.length).toBe(1);
  });
});

describe('clusterPrompt', () => {
  it('fills {cluster_content} with the texts, each trimmed to an equal share of the context', () => {
    const long = 'word '.repeat(5000);
    const prompt = clusterPrompt('Summarize: {cluster_content} END', [long, long, 'short'], 1000, 100);
    expect(prompt.startsWith('Summarize: word')).toBe(true);
    expect(prompt.endsWith('\nshort END')).toBe(true);
    expect(countTokens(prompt)).toBeLessThanOrEqual(900 + 10);
  });
});

describe('raptorSkipReason', () => {
  it('skips structured data with a progress message, keeps prose', () => {
    expect(raptorSkipReason({ parserId: 'table' })).toBe('structured data (Table chunk method)');
    expect(raptorSkipReason({ parserId: 'tag' })).toBe('structured data (Tag chunk method)');
    expect(raptorSkipReason({ parserId: 'naive', suffix: 'XLSX' })).toBe(
      'structured data (.xlsx spreadsheet)',
    );
    expect(raptorSkipReason({ parserId: 'naive', suffix: 'pdf', parserConfig: { html4excel: true } })).toBe(
      'structured data (spreadsheet rendered as HTML tables)',
    );
    expect(raptorSkipReason({ parserId: 'naive', suffix: 'pdf' })).toBeNull();
    expect(
      raptorSkipReason({
        parserId: 'table',
        parserConfig: { raptor: { auto_disable_for_structured_data: false } },
      }),
    ).toBeNull();
    expect(raptorSkipMessage('structured data (Table chunk method)')).toBe(
      'Raptor skipped: structured data (Table chunk method)',
    );
  });

  it('logs each skipped document as "Raptor skipped: <reason> (<name>)" from the shared catalogue', () => {
    const docs: RaptorSkipInput[] = [
      { parserId: 'table' },
      { parserId: 'tag' },
      { parserId: 'naive', suffix: '.CSV' },
      { parserId: 'naive', suffix: 'pdf', parserConfig: { html4excel: true } },
    ];
    for (const doc of docs) {
      expect(raptorSkipLine(doc, 'sales (2024).xlsx')).toBe(
        `${raptorSkipMessage(raptorSkipReason(doc)!)} (sales (2024).xlsx)`,
      );
    }
    expect(raptorSkipLine({ parserId: 'naive', suffix: 'pdf' }, 'a.pdf')).toBeNull();
  });
});

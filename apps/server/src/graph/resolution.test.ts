import { describe, expect, it } from 'vitest';
import {
  buildDocumentSubgraph,
  createKbGraph,
  mergeSubgraph,
  relationKey,
  type KbGraph,
} from './kb-graph.js';
import { isSimilarName, parseResolutionAnswer, resolutionCandidates, resolveEntities } from './resolution.js';
import { ScriptedModel } from './test-fixtures.js';

function graphOf(ents: Array<[string, string]>, rels: Array<[string, string, number]>, docId = 'D'): KbGraph {
  const kb = createKbGraph();
  const sub = buildDocumentSubgraph(docId, [
    {
      chunkId: `${docId}-c`,
      docId,
      entities: ents.map(([name, type]) => ({ name, type, description: `${name} desc` })),
      relations: rels.map(([source, target, strength]) => ({
        source,
        target,
        description: `${source}~${target}`,
        keywords: [],
        strength,
      })),
    },
  ]).graph;
  mergeSubgraph(kb, sub);
  return kb;
}

describe('isSimilarName', () => {
  it('accepts spelling variants and word-wise containment, rejects different numbers and unrelated names', () => {
    expect(isSimilarName('APPLE', 'APPLE INC')).toBe(true);
    expect(isSimilarName('MICROSOFT', 'MICROSOF')).toBe(true);
    expect(isSimilarName('REPORT 2023', 'REPORT 2024')).toBe(false);
    expect(isSimilarName('PARIS', 'LONDON')).toBe(false);
    expect(isSimilarName('北京大学', '北京大學')).toBe(false);
    // Close enough to ask (5 of 6 characters shared); the model decides.
    expect(isSimilarName('北京大学医学部', '北京大学医学院')).toBe(true);
    expect(isSimilarName('清华大学出版社', '清华大学出版')).toBe(true);
  });
});

describe('resolutionCandidates', () => {
  it('pairs only same-type entities with similar names', () => {
    const kb = graphOf(
      [
        ['APPLE', 'ORGANIZATION'],
        ['APPLE INC', 'ORGANIZATION'],
        ['APPLE PIE', 'CATEGORY'],
        ['BANANA', 'ORGANIZATION'],
      ],
      [],
    );
    expect(resolutionCandidates(kb)).toEqual([['APPLE', 'APPLE INC']]);
  });
});

describe('parseResolutionAnswer', () => {
  it('reads yes/no lines in several spellings and ignores out-of-range questions', () => {
    const text = 'Question 1: yes\nquestion 2 - No\n**Question 3:** YES\nQuestion 9: yes\nQuestion 4：是';
    expect(parseResolutionAnswer(text, 4)).toEqual({ yes: [0, 2, 3], answered: 4 });
    expect(parseResolutionAnswer('I am not sure.', 2)).toEqual({ yes: [], answered: 0 });
  });
});

describe('resolveEntities', () => {
  it('merges model-confirmed pairs: contributions combined, edges re-pointed, parallel edges summed', async () => {
    const kb = graphOf(
      [
        ['APPLE', 'ORGANIZATION'],
        ['APPLE INC', 'ORGANIZATION'],
        ['APPLE INC.', 'ORGANIZATION'],
        ['TIM COOK', 'PERSON'],
        ['TIM COOKE', 'PERSON'],
      ],
      [
        ['TIM COOK', 'APPLE', 2],
        ['TIM COOK', 'APPLE INC', 3],
        ['APPLE', 'APPLE INC', 1],
      ],
    );
    // A second document mentions APPLE INC too, so it has the most source chunks and is kept.
    mergeSubgraph(
      kb,
      buildDocumentSubgraph('E', [
        {
          chunkId: 'E-c',
          docId: 'E',
          entities: [{ name: 'APPLE INC', type: 'ORGANIZATION', description: 'maker' }],
          relations: [],
        },
      ]).graph,
    );
    const model = new ScriptedModel((messages) => {
      const lines = messages[0].content.split('\n').filter((l) => l.startsWith('Question '));
      return lines
        .map((l) => {
          const n = /Question (\d+)/.exec(l)?.[1];
          return `Question ${n}: ${l.includes('TIM') ? 'no' : 'yes'}`;
        })
        .join('\n');
    });
    const res = await resolveEntities(kb, { model, concurrency: 2, batchSize: 2 });
    expect(res.merges).toEqual([{ kept: 'APPLE INC', merged: ['APPLE INC.', 'APPLE'] }]);
    expect(kb.hasNode('APPLE')).toBe(false);
    expect(kb.hasNode('TIM COOKE')).toBe(true);
    const kept = kb.getNodeAttributes('APPLE INC');
    expect(kept.source_id.sort()).toEqual(['D-c', 'E-c']);
    expect(kept.description).toContain('APPLE desc');
    // TIM COOK–APPLE (2) and TIM COOK–APPLE INC (3) became one edge of weight 5; APPLE–APPLE INC vanished.
    expect(kb.getEdgeAttribute(relationKey('TIM COOK', 'APPLE INC'), 'weight')).toBe(5);
    expect(kb.size).toBe(1);
    expect(res.failedBatches).toBe(0);
    expect(res.usage.totalTokens).toBeGreaterThan(0);
  });

  it('counts unanswered batches and merges nothing', async () => {
    const kb = graphOf(
      [
        ['APPLE', 'ORGANIZATION'],
        ['APPLE INC', 'ORGANIZATION'],
      ],
      [],
    );
    const model = new ScriptedModel(() => 'Sorry, I cannot decide.');
    const res = await resolveEntities(kb, { model, concurrency: 1 });
    expect(res).toMatchObject({ candidates: 1, merges: [], failedBatches: 1 });
    expect(kb.order).toBe(2);
  });
});

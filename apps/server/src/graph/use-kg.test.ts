import { describe, expect, it } from 'vitest';
import { ScriptedModel } from './test-fixtures.js';
import { countTokens } from './tokens.js';
import {
  knowledgeGraphChunk,
  useKgRetrieval,
  type EntityHit,
  type KgLookups,
  type RelationHit,
} from './use-kg.js';

/** Look-ups over fixed hit lists, recording what was asked. */
function lookups(opts: {
  entities: EntityHit[];
  typed?: Array<{ name: string; pagerank: number }>;
  relations?: RelationHit[];
  stored?: Record<string, { description: string; weight: number }>;
  reports?: Array<{ title: string; report: string; evidences: string }>;
}): KgLookups & { asked: Record<string, unknown[]> } {
  const asked: Record<string, unknown[]> = {
    searchEntities: [],
    entitiesOfTypes: [],
    relation: [],
    communityReports: [],
  };
  return {
    asked,
    async searchEntities(query, topN) {
      asked.searchEntities.push({ query, topN });
      return opts.entities;
    },
    async entitiesOfTypes(types) {
      asked.entitiesOfTypes.push(types);
      return opts.typed ?? [];
    },
    async searchRelations() {
      return opts.relations ?? [];
    },
    async relation(from, to) {
      asked.relation.push([from, to]);
      return opts.stored?.[`${from}|${to}`] ?? opts.stored?.[`${to}|${from}`] ?? null;
    },
    async communityReports(entities, topN) {
      asked.communityReports.push({ entities, topN });
      return (opts.reports ?? []).slice(0, topN);
    },
  };
}

describe('useKgRetrieval', () => {
  it('ranks entities by similarity × PageRank over the 0.3 floor and renders the tables first', async () => {
    const l = lookups({
      entities: [
        { name: 'ALICE', similarity: 0.9, pagerank: 0.1, description: 'An engineer.' },
        { name: 'ACME', similarity: 0.5, pagerank: 0.4, description: 'A rocket maker, "big".' },
        { name: 'NOISE', similarity: 0.29, pagerank: 0.9, description: 'below the floor' },
      ],
      relations: [
        { from: 'ALICE', to: 'ACME', similarity: 0.8, weight: 6, description: 'Alice works at Acme' },
        { from: 'X', to: 'Y', similarity: 0.1, weight: 100, description: 'below the floor' },
      ],
      reports: [{ title: 'Acme people', report: 'Acme employs Alice.', evidences: 'HR files.' }],
    });
    const res = await useKgRetrieval('Who works at Acme?', { lookups: l });
    expect(res.entities.map((e) => e.name)).toEqual(['ACME', 'ALICE']);
    expect(res.content).toBe(
      '\n---- Entities ----\n,Entity,Score,Description\n0,ACME,0.20,"A rocket maker, ""big""."\n1,ALICE,0.09,An engineer.\n' +
        '\n---- Relations ----\n,From Entity,To Entity,Score,Description\n0,ALICE,ACME,4.80,Alice works at Acme\n' +
        '\n---- Community Report ----\n# 1. Acme people\n## Content\nAcme employs Alice.\n## Evidences\nHR files.\n',
    );
    // Without a model, the question itself is the keyword; one report about the best entities.
    expect(l.asked.searchEntities[0]).toEqual({
      query: { text: 'Who works at Acme?', keywords: ['Who works at Acme?'] },
      topN: 56,
    });
    expect(l.asked.communityReports[0]).toEqual({ entities: ['ACME', 'ALICE'], topN: 1 });
  });

  it('uses the model to pick types and entity keywords; typed entities and relations are boosted', async () => {
    const model = new ScriptedModel(
      () => '```json\n{"answer_type_keywords": ["organization"], "entities_from_query": ["Acme"]}\n```',
    );
    const l = lookups({
      entities: [
        { name: 'ALICE', similarity: 0.6, pagerank: 0.2, description: 'person' },
        { name: 'ACME', similarity: 0.4, pagerank: 0.2, description: 'company' },
      ],
      typed: [{ name: 'ACME', pagerank: 0.2 }],
      relations: [
        { from: 'ALICE', to: 'BOB', similarity: 0.5, weight: 2, description: 'friends' },
        { from: 'BOB', to: 'ACME', similarity: 0.4, weight: 2, description: 'Bob at Acme' },
      ],
    });
    const res = await useKgRetrieval('Which company?', {
      lookups: l,
      model,
      entityTypes: ['ORGANIZATION', 'PERSON'],
    });
    expect(model.calls[0][0].content).toContain('["ORGANIZATION","PERSON"]');
    expect(l.asked.searchEntities[0]).toMatchObject({ query: { keywords: ['Acme'] } });
    expect(l.asked.entitiesOfTypes[0]).toEqual(['ORGANIZATION']);
    // ACME's similarity doubled (0.8·0.2 = 0.16) puts it above ALICE (0.12).
    expect(res.entities.map((e) => e.name)).toEqual(['ACME', 'ALICE']);
    // BOB–ACME touches a typed entity: 0.4·(1+1)·2 = 1.6 beats ALICE–BOB 0.5·1·2 = 1.0.
    expect(res.relations.map((r) => `${r.from}-${r.to}`)).toEqual(['BOB-ACME', 'ALICE-BOB']);
    expect(res.usage.totalTokens).toBeGreaterThan(0);
  });

  it('adds relations reached through n-hop paths and fetches their descriptions', async () => {
    const l = lookups({
      entities: [
        {
          name: 'ALICE',
          similarity: 0.8,
          pagerank: 0.5,
          description: 'x',
          nHopPaths: [
            { path: ['ALICE', 'BOB'], weights: [3] },
            { path: ['ALICE', 'BOB', 'CAROL'], weights: [3, 4] },
          ],
        },
      ],
      relations: [{ from: 'BOB', to: 'ALICE', similarity: 0.5, weight: 3, description: 'siblings' }],
      stored: { 'BOB|CAROL': { description: 'Bob mentors Carol', weight: 4 } },
    });
    const res = await useKgRetrieval('q', { lookups: l });
    // BOB–ALICE from search, boosted by the path through it: 0.5·(0.8/2 + 0.8/2 + 1)·3 = 2.7;
    // BOB–CAROL only via the path: (0.8/3)·1·4 ≈ 1.07.
    expect(res.relations.map((r) => [r.from, r.to, Number(r.score.toFixed(2))])).toEqual([
      ['BOB', 'ALICE', 2.7],
      ['BOB', 'CAROL', 1.07],
    ]);
    expect(l.asked.relation).toEqual([['BOB', 'CAROL']]);
    expect(res.content).toContain('0,BOB,ALICE,2.70,siblings\n1,BOB,CAROL,1.07,Bob mentors Carol');
  });

  it('keeps within the token budget and returns "" when nothing is relevant', async () => {
    const long = 'word '.repeat(300);
    const l = lookups({
      entities: Array.from({ length: 6 }, (_, i) => ({
        name: `E${i}`,
        similarity: 0.9,
        pagerank: 1 - i / 10,
        description: long,
      })),
      reports: [{ title: 't', report: long, evidences: '' }],
    });
    const res = await useKgRetrieval('q', { lookups: l, maxTokens: 700 });
    expect(res.entities).toHaveLength(2);
    expect(countTokens(res.content)).toBeLessThanOrEqual(700);
    expect(res.content).not.toContain('Community Report');

    const none = await useKgRetrieval('q', { lookups: lookups({ entities: [] }) });
    expect(none.content).toBe('');
  });

  it('falls back to the question when the model answer is unusable', async () => {
    const model = new ScriptedModel(() => 'no idea');
    const l = lookups({ entities: [] });
    await useKgRetrieval('Who is Alice?', { lookups: l, model });
    expect(l.asked.searchEntities[0]).toMatchObject({ query: { keywords: ['Who is Alice?'] } });
    expect(l.asked.entitiesOfTypes).toEqual([]);
  });

  it('shapes the synthetic chunk like a retrieval result', () => {
    expect(knowledgeGraphChunk('tables', ['kb1'], 'id1')).toMatchObject({
      chunk_id: 'id1',
      content_with_weight: 'tables',
      docnm_kwd: 'Related content in Knowledge Graph',
      kb_id: ['kb1'],
      similarity: 1,
      vector_similarity: 1,
      term_similarity: 0,
      positions: [],
    });
  });
});

import { describe, expect, it } from 'vitest';
import type { ChunkExtraction } from './extractor.js';
import {
  buildDocumentSubgraph,
  createKbGraph,
  exportKbGraph,
  importKbGraph,
  mergeSubgraph,
  relationKey,
  removeDocuments,
  type KbGraph,
} from './kb-graph.js';
import { summarizeLongDescriptions } from './summarize.js';
import { ScriptedModel } from './test-fixtures.js';

function ex(
  chunkId: string,
  docId: string,
  ents: Array<[string, string, string]>,
  rels: Array<[string, string, string, number]> = [],
): ChunkExtraction {
  return {
    chunkId,
    docId,
    entities: ents.map(([name, type, description]) => ({ name, type, description })),
    relations: rels.map(([source, target, description, strength]) => ({
      source,
      target,
      description,
      keywords: [description.split(' ')[1]],
      strength,
    })),
  };
}

function kbWith(...docs: Array<[string, ChunkExtraction[]]>): KbGraph {
  const kb = createKbGraph();
  for (const [docId, exs] of docs) mergeSubgraph(kb, buildDocumentSubgraph(docId, exs).graph);
  return kb;
}

const DOC_A: ChunkExtraction[] = [
  ex(
    'a1',
    'A',
    [
      ['ALICE', 'PERSON', 'Alice is an engineer.'],
      ['ACME', 'ORGANIZATION', 'Acme makes rockets.'],
    ],
    [['ALICE', 'ACME', 'Alice works-at Acme', 6]],
  ),
  ex(
    'a2',
    'A',
    [
      ['ALICE', 'PERSON', 'Alice lives in Paris.'],
      ['PARIS', 'GEO', 'Capital of France.'],
    ],
    [['PARIS', 'ALICE', 'Alice lives-in Paris', 4]],
  ),
];
const DOC_B: ChunkExtraction[] = [
  ex(
    'b1',
    'B',
    [
      ['ALICE', 'PERSON', 'Alice is an engineer.'],
      ['ACME', 'ORGANIZATION', 'Acme was founded in 1990.'],
      ['BOB', 'PERSON', 'Bob is a pilot.'],
    ],
    [
      ['ACME', 'ALICE', 'Alice founded Acme', 3],
      ['BOB', 'ACME', 'Bob flies-for Acme', 5],
    ],
  ),
];

describe('document subgraphs and the KB graph', () => {
  it('builds a document subgraph: same-name entities across chunks are one node', () => {
    const { graph, stats } = buildDocumentSubgraph('A', DOC_A);
    expect(graph.nodes().sort()).toEqual(['ACME', 'ALICE', 'PARIS']);
    const alice = graph.getNodeAttributes('ALICE');
    expect(alice.description).toBe('Alice is an engineer.\nAlice lives in Paris.');
    expect(alice.source_id).toEqual(['a1', 'a2']);
    expect(stats).toEqual({ entities: 3, relations: 2, danglingRelations: 0 });
    // Edges are undirected and keyed by the sorted pair.
    expect(graph.hasEdge(relationKey('ALICE', 'PARIS'))).toBe(true);
  });

  it('drops relations to entities the document did not extract', () => {
    const { graph, stats } = buildDocumentSubgraph('X', [
      ex('x1', 'X', [['ALICE', 'PERSON', 'a']], [['ALICE', 'GHOST', 'Alice sees Ghost', 2]]),
    ]);
    expect(graph.size).toBe(0);
    expect(stats.danglingRelations).toBe(1);
  });

  it('merges documents: descriptions joined (deduplicated), weights summed, chunk and doc ids tracked', () => {
    const kb = kbWith(['A', DOC_A], ['B', DOC_B]);
    expect(kb.order).toBe(4);
    const acme = kb.getNodeAttributes('ACME');
    expect(acme.description).toBe('Acme makes rockets.\nAcme was founded in 1990.');
    expect(acme.source_id).toEqual(['a1', 'b1']);
    expect(Object.keys(acme.contributions)).toEqual(['A', 'B']);
    // "Alice is an engineer." said by both documents appears once.
    expect(kb.getNodeAttribute('ALICE', 'description').split('\n')).toEqual([
      'Alice is an engineer.',
      'Alice lives in Paris.',
    ]);
    const edge = kb.getEdgeAttributes(relationKey('ALICE', 'ACME'));
    expect(edge.weight).toBe(9);
    expect(edge.keywords).toEqual(['works-at', 'founded']);
    expect(edge.source_id).toEqual(['a1', 'b1']);
    expect(edge.description).toBe('Alice works-at Acme\nAlice founded Acme');
  });

  it('the entity type is the most frequent one across mentions', () => {
    const kb = kbWith(
      ['A', [ex('1', 'A', [['MERCURY', 'GEO', 'a planet']])]],
      ['B', [ex('2', 'B', [['MERCURY', 'PERSON', 'Freddie']])]],
      ['C', [ex('3', 'C', [['MERCURY', 'GEO', 'closest to the sun']])]],
    );
    expect(kb.getNodeAttribute('MERCURY', 'entity_type')).toBe('GEO');
  });

  it('re-merging the same document replaces its contribution instead of doubling it', () => {
    const kb = kbWith(['A', DOC_A], ['B', DOC_B]);
    mergeSubgraph(kb, buildDocumentSubgraph('B', DOC_B).graph);
    expect(kb.getEdgeAttribute(relationKey('ALICE', 'ACME'), 'weight')).toBe(9);
  });

  it('incremental: adding a document equals building from scratch', () => {
    const incremental = kbWith(['A', DOC_A]);
    mergeSubgraph(incremental, buildDocumentSubgraph('B', DOC_B).graph);
    const scratch = kbWith(['A', DOC_A], ['B', DOC_B]);
    expect(exportKbGraph(incremental)).toEqual(exportKbGraph(scratch));
  });

  it('incremental: removing a document removes exactly what only it contributed', () => {
    const kb = kbWith(['A', DOC_A], ['B', DOC_B]);
    const out = removeDocuments(kb, ['B']);
    expect(out.removedNodes).toEqual(['BOB']);
    expect(out.removedEdges).toContain(relationKey('BOB', 'ACME'));
    // What remains is exactly document A's graph.
    expect(exportKbGraph(kb)).toEqual(exportKbGraph(kbWith(['A', DOC_A])));
    expect(kb.getEdgeAttribute(relationKey('ALICE', 'ACME'), 'weight')).toBe(6);
    expect(kb.getNodeAttribute('ACME', 'source_id')).toEqual(['a1']);
    removeDocuments(kb, ['A']);
    expect(kb.order).toBe(0);
    expect(kb.size).toBe(0);
  });

  it('round-trips through JSON (graphology export) with its bookkeeping', () => {
    const kb = kbWith(['A', DOC_A], ['B', DOC_B]);
    const copy = importKbGraph(JSON.stringify(exportKbGraph(kb)));
    expect(exportKbGraph(copy)).toEqual(exportKbGraph(kb));
    removeDocuments(copy, ['B']);
    expect(copy.hasNode('BOB')).toBe(false);
    expect(copy.getNodeAttribute('ACME', 'description')).toBe('Acme makes rockets.');
  });
});

describe('summarizeLongDescriptions', () => {
  const longDocs = (n: number): Array<[string, ChunkExtraction[]]> =>
    Array.from({ length: n }, (_, i) => [
      `D${i}`,
      [
        ex(`c${i}`, `D${i}`, [
          ['ACME', 'ORGANIZATION', `Fact number ${i}: ${'Acme did something notable. '.repeat(8)}`],
        ]),
      ],
    ]);

  it('summarizes only descriptions over the threshold, and a later change brings the raw text back', async () => {
    const kb = kbWith(...longDocs(6), [
      'S',
      [
        ex('s', 'S', [
          ['SMALL', 'PERSON', 'short'],
          ['SMALL2', 'PERSON', 'tiny'],
        ]),
      ],
    ]);
    const model = new ScriptedModel(
      (messages) => `SUMMARY OF ${/Item: (.*)/.exec(messages[0].content)?.[1]}`,
    );
    const res = await summarizeLongDescriptions(kb, { model, concurrency: 2, thresholdTokens: 100 });
    expect(res).toMatchObject({ summarized: 1, failed: 0 });
    expect(kb.getNodeAttribute('ACME', 'description')).toBe('SUMMARY OF ACME');
    expect(kb.getNodeAttribute('SMALL', 'description')).toBe('short');
    expect(model.calls[0][0].content).toContain('- Fact number 0:');
    // Summarizing again does nothing: the summary still stands for the same descriptions.
    expect(
      (await summarizeLongDescriptions(kb, { model, concurrency: 2, thresholdTokens: 100 })).summarized,
    ).toBe(0);
    removeDocuments(kb, ['D0']);
    expect(kb.getNodeAttribute('ACME', 'description')).toMatch(/^Fact number 1:/);
  });

  it('keeps the joined descriptions when the model fails', async () => {
    const kb = kbWith(...longDocs(6));
    const model = new ScriptedModel(() => {
      throw new Error('down');
    });
    const res = await summarizeLongDescriptions(kb, { model, concurrency: 1, thresholdTokens: 100 });
    expect(res).toMatchObject({ summarized: 0, failed: 1 });
    expect(kb.getNodeAttribute('ACME', 'description')).toMatch(/^Fact number 0/);
  });
});

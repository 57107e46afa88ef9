/** Retrieval (§10.3) with the agent defaults of API.md §19.12. */
import { describe, expect, it } from 'vitest';
import { runCanvas } from '../runtime/run-canvas.js';
import { chunkKey } from '../runtime/references.js';
import { collect, dsl, finished } from '../../test/helpers.js';
import { chunk, fakePorts, FakeRetrieval } from '../../test/fakes.js';

function flow(params: Record<string, unknown>) {
  return dsl([
    {
      id: 'begin',
      name: 'begin',
      params: { inputs: { kb: { name: 'Knowledge base', type: 'options' } } },
      downstream: ['Retrieval:R'],
    },
    { id: 'Retrieval:R', name: 'Search', params },
  ]);
}

async function run(
  params: Record<string, unknown>,
  retrieval = new FakeRetrieval(),
  inputs: Record<string, unknown> = {},
) {
  const r = runCanvas({
    dsl: flow(params),
    query: 'user: how to install',
    inputs,
    taskId: 't',
    ports: fakePorts([], { retrieval }),
  });
  const events = await collect(r);
  return { done: finished(events, 'Retrieval:R'), retrieval, r };
}

describe('Retrieval', () => {
  it('searches with the agent defaults and formats hits as prompt text', async () => {
    const retrieval = new FakeRetrieval([
      chunk('c1', 'Run setup.exe', 'install.md'),
      { ...chunk('c2', 'Use apt', 'linux.md'), url: 'https://x/linux', meta: { version: '2' } },
    ]);
    const { done, r } = await run({ query: '{sys.query}', kb_ids: ['kb1'] }, retrieval);
    expect(retrieval.requests[0]).toEqual({
      query: 'how to install',
      datasets: ['kb1'],
      memoryIds: [],
      from: 'dataset',
      similarityThreshold: 0.2,
      vectorSimilarityWeight: 0.5,
      topN: 8,
      topK: 1024,
      rerankId: '',
      useKg: false,
      crossLanguages: [],
      tocEnhance: false,
      metaDataFilter: {},
    });
    const [k1, k2] = [chunkKey('c1'), chunkKey('c2')];
    expect(done.outputs.formalized_content).toBe(
      `\nID: ${k1}\n├── Title: install.md\n└── Content:\nRun setup.exe\n\nID: ${k2}\n├── Title: linux.md\n├── URL: https://x/linux\n├── version: 2\n└── Content:\nUse apt`,
    );
    expect((done.outputs.json as unknown[]).length).toBe(2);
    const bucket = r.dsl.retrieval.at(-1) as {
      chunks: Record<string, { document_name: string }>;
      doc_aggs: Record<string, unknown>;
    };
    expect(Object.keys(bucket.chunks).sort()).toEqual([String(k1), String(k2)].sort());
    expect(bucket.chunks[String(k1)]).toMatchObject({
      id: 'c1',
      content: 'Run setup.exe',
      document_name: 'install.md',
      dataset_id: 'kb1',
    });
    expect(Object.keys(bucket.doc_aggs)).toEqual(['install.md', 'linux.md']);
  });

  it('takes its settings from params and resolves dataset references (bare query reference too)', async () => {
    const { retrieval } = await run(
      {
        query: 'sys.query',
        kb_ids: ['kb1', 'begin@kb'],
        similarity_threshold: 0.4,
        keywords_similarity_weight: 0.7,
        top_n: 3,
        rerank_id: 'bge@X',
        use_kg: true,
      },
      new FakeRetrieval(),
      { kb: { type: 'options', value: 'manuals' } },
    );
    expect(retrieval.requests[0]).toMatchObject({
      query: 'how to install',
      datasets: ['kb1', 'manuals'],
      similarityThreshold: 0.4,
      topN: 3,
      rerankId: 'bge@X',
      useKg: true,
    });
    expect(retrieval.requests[0].vectorSimilarityWeight).toBeCloseTo(0.3);
  });

  it('answers empty_response when nothing is found, and errors without a dataset or for an unknown one', async () => {
    const empty = await run(
      { query: '{sys.query}', kb_ids: ['kb1'], empty_response: 'Nothing in the manual.' },
      new FakeRetrieval([]),
    );
    expect(empty.done.outputs.formalized_content).toBe('Nothing in the manual.');
    expect((await run({ query: '{sys.query}', kb_ids: [] })).done.error).toBe('No dataset is selected.');
    expect((await run({ query: '{sys.query}', kb_ids: ['missing'] })).done.error).toBe(
      'Dataset(missing) does not exist.',
    );
  });
});

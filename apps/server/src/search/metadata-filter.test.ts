/**
 * Metadata filters over HTTP (and the agent's retrieval port): manual and auto `meta_data_filter` in
 * retrieval testing, chat completions and search apps, `metadata_condition` in `/api/v1/retrieval`
 * and `chats_openai` `extra_body`. Three documents with metadata, one chunk each, all matching the
 * question; the filter decides which come back. The stand-in chat model answers the auto-filter
 * prompt with scripted conditions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { startOpenAIStandin, type OpenAIChatBody, type Standin } from '../../test/standins/index.js';
import { textOf } from '../../test/standins/openai.js';
import type { RetrievalRequest } from '@lectern/agent-core';
import { agentRetrievalPort } from '../agents/retrieval-port.js';
import {
  answers,
  createConversation,
  createDialog,
  createKb,
  postSse,
  seedChunks,
  wireModels,
} from '../chat/test-fixtures.js';
import { api, apiKeyOf } from '../modules/public-api/test-support.js';

let server: TestServer;
let llm: Standin;
let embed: Standin;
let owner: TestUser;
let kbId: string;
const docs: Record<'alice' | 'bob' | 'bare', string> = { alice: '', bob: '', bare: '' };
/** What the stand-in answers to the auto-filter prompt (other prompts get "ok"). */
let filterAnswer = '{"conditions": []}';

function isFilterPrompt(body: OpenAIChatBody): boolean {
  return textOf(body.messages[0]?.content).includes('filter conditions over document metadata');
}

function filterPrompts(): string[] {
  return llm
    .modelCalls()
    .map((c) => c.body as OpenAIChatBody)
    .filter(isFilterPrompt)
    .map((b) => textOf(b.messages[1]?.content));
}

async function retrievalTest(extra: Record<string, unknown>) {
  const res = await call<{ total: number; chunks: Array<{ doc_id: string }> }>(
    server,
    '/v1/chunk/retrieval_test',
    { token: owner.token, body: { kb_id: kbId, question: 'solar panel report', ...extra } },
  );
  expect(res.body.code, res.body.message).toBe(0);
  return res.body.data!;
}

const docIdsOf = (chunks: Array<{ doc_id?: unknown; document_id?: unknown }>) =>
  chunks.map((c) => String(c.doc_id ?? c.document_id)).sort();
const ids = (...names: Array<keyof typeof docs>) => names.map((n) => docs[n]).sort();

beforeAll(async () => {
  llm = await startOpenAIStandin({ reply: (b) => (isFilterPrompt(b) ? filterAnswer : 'ok') });
  embed = await startOpenAIStandin();
  server = await startTestServer({ MODEL_MAX_RETRIES: '0' });
  owner = await newUser(server, 'metaowner');
  await wireModels(server, owner, llm, { embed });
  kbId = await createKb(server, owner, 'Reports');
  const virtualDoc = async (name: string, meta: Record<string, unknown> | null) => {
    const res = await call<{ id: string }>(server, '/v1/document/create', {
      token: owner.token,
      body: { name, kb_id: kbId },
    });
    expect(res.body.code).toBe(0);
    const id = res.body.data!.id;
    if (meta) {
      const set = await call(server, '/v1/document/set_meta', {
        token: owner.token,
        body: { doc_id: id, meta: JSON.stringify(meta) },
      });
      expect(set.body.code).toBe(0);
    }
    return id;
  };
  docs.alice = await virtualDoc('alice.txt', { author: 'Alice', year: 2024, tags: ['solar', 'energy'] });
  docs.bob = await virtualDoc('bob.txt', { author: 'Bob', year: 2019 });
  docs.bare = await virtualDoc('bare.txt', null);
  await seedChunks(server, kbId, owner.id, [
    { content: 'The solar panel report of the north roof.', doc: 'alice.txt', docId: docs.alice },
    { content: 'The solar panel report of the south field.', doc: 'bob.txt', docId: docs.bob },
    { content: 'The solar panel report of the old barn.', doc: 'bare.txt', docId: docs.bare },
  ]);
});

afterAll(async () => {
  await server?.close();
  await llm?.close();
  await embed?.close();
});

describe('manual meta_data_filter in retrieval testing', () => {
  const manual = (manual: unknown[], logic = 'and') => ({
    meta_data_filter: { method: 'manual', logic, manual },
  });

  it('without a filter (absent, {}, disabled) every document answers', async () => {
    for (const extra of [{}, { meta_data_filter: {} }, { meta_data_filter: { method: 'disabled' } }]) {
      expect(docIdsOf((await retrievalTest(extra)).chunks)).toEqual(ids('alice', 'bob', 'bare'));
    }
  });

  it('keeps the documents whose metadata match, in the index before ranking', async () => {
    const r = await retrievalTest(manual([{ key: 'author', op: 'is', value: 'alice' }]));
    expect(r.total).toBe(1);
    expect(docIdsOf(r.chunks)).toEqual(ids('alice'));
    expect(docIdsOf((await retrievalTest(manual([{ key: 'year', op: '<', value: '2020' }]))).chunks)).toEqual(
      ids('bob'),
    );
    expect(
      docIdsOf((await retrievalTest(manual([{ key: 'author', op: 'empty', value: '' }]))).chunks),
    ).toEqual(ids('bare'));
    expect(
      docIdsOf((await retrievalTest(manual([{ key: 'tags', op: 'contains', value: 'sol' }]))).chunks),
    ).toEqual(ids('alice'));
  });

  it('and / or join the conditions', async () => {
    const conds = [
      { key: 'author', op: 'is', value: 'Bob' },
      { key: 'year', op: '≥', value: 2024 },
    ];
    expect((await retrievalTest(manual(conds, 'and'))).total).toBe(0);
    expect(docIdsOf((await retrievalTest(manual(conds, 'or'))).chunks)).toEqual(ids('alice', 'bob'));
  });

  it('no matching document → an empty result, not an unfiltered one', async () => {
    const r = await retrievalTest(manual([{ key: 'author', op: 'is', value: 'Carol' }]));
    expect(r).toMatchObject({ total: 0, chunks: [], doc_aggs: [] });
    // An operator the language does not know narrows to nothing rather than being ignored.
    const unknown = await retrievalTest(manual([{ key: 'author', op: 'resembles', value: 'Alice' }]));
    expect(unknown.total).toBe(0);
  });

  it('the filter narrows the request’s own doc_ids further', async () => {
    const r = await retrievalTest({
      doc_ids: [docs.bob, docs.bare],
      ...manual([{ key: 'year', op: 'not empty', value: '' }]),
    });
    expect(docIdsOf(r.chunks)).toEqual(ids('bob'));
  });
});

describe('auto meta_data_filter: the chat model makes the conditions', () => {
  it('filters by the conditions the model derived from the question and the KB’s metadata keys', async () => {
    llm.requests.length = 0;
    filterAnswer = '```json\n{"logic":"and","conditions":[{"key":"author","op":"is","value":"Bob"}]}\n```';
    const r = await retrievalTest({ meta_data_filter: { method: 'auto' } });
    expect(docIdsOf(r.chunks)).toEqual(ids('bob'));
    const prompts = filterPrompts();
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain('"author": "Alice", "Bob"');
    expect(prompts[0]).toContain('Question: solar panel report');
  });

  it('semi_auto only offers the chosen keys', async () => {
    llm.requests.length = 0;
    filterAnswer =
      '{"conditions":[{"key":"year","op":">","value":2020},{"key":"author","op":"is","value":"Bob"}]}';
    const r = await retrievalTest({ meta_data_filter: { method: 'semi_auto', semi_auto: ['year'] } });
    // The author condition names a key that was not offered: only year > 2020 applies.
    expect(docIdsOf(r.chunks)).toEqual(ids('alice'));
    expect(filterPrompts()[0]).not.toContain('"author"');
  });

  it('a question that restricts nothing, or an unusable answer, leaves retrieval unfiltered', async () => {
    for (const answer of ['{"conditions": []}', 'I do not know.']) {
      filterAnswer = answer;
      const r = await retrievalTest({ meta_data_filter: { method: 'auto' } });
      expect(docIdsOf(r.chunks)).toEqual(ids('alice', 'bob', 'bare'));
    }
  });

  it('conditions that match nothing give nothing', async () => {
    filterAnswer = '{"conditions":[{"key":"author","op":"is","value":"Zed"}]}';
    expect((await retrievalTest({ meta_data_filter: { method: 'auto' } })).total).toBe(0);
  });
});

describe('chat assistants and search apps', () => {
  async function chatReference(filter: Record<string, unknown>): Promise<string[]> {
    const dialog = await createDialog(server, owner, {
      name: `Filtered ${Math.random()}`,
      kb_ids: [kbId],
      similarity_threshold: 0,
      meta_data_filter: filter,
      prompt_config: { system: 'Answer from the knowledge.\n{knowledge}', empty_response: 'Nothing.' },
    });
    const conv = await createConversation(server, owner, dialog.id);
    const r = await postSse(
      server,
      '/v1/conversation/completion',
      { conversation_id: conv, messages: [{ role: 'user', content: 'solar panel report' }] },
      owner.token,
    );
    const final = answers(r).at(-1)!;
    expect(final.final).toBe(true);
    return docIdsOf(final.reference.chunks);
  }

  it('a manual filter of the assistant restricts the chat’s knowledge', async () => {
    expect(
      await chatReference({ method: 'manual', manual: [{ key: 'author', op: 'is not', value: 'Bob' }] }),
    ).toEqual(ids('alice', 'bare'));
  });

  it('an auto filter of the assistant asks the assistant’s model with the question', async () => {
    filterAnswer = '{"conditions":[{"key":"year","op":"=","value":"2019"}]}';
    llm.requests.length = 0;
    expect(await chatReference({ method: 'auto' })).toEqual(ids('bob'));
    expect(filterPrompts()[0]).toContain('Question: solar panel report');
  });

  it('a search app’s auto filter applies to ask', async () => {
    const created = await call<{ search_id: string }>(server, '/v1/search/create', {
      token: owner.token,
      body: { name: 'Reports search' },
    });
    const searchId = created.body.data!.search_id;
    const updated = await call(server, '/v1/search/update', {
      token: owner.token,
      body: {
        search_id: searchId,
        name: 'Reports search',
        tenant_id: owner.id,
        search_config: { kb_ids: [kbId], similarity_threshold: 0, meta_data_filter: { method: 'auto' } },
      },
    });
    expect(updated.body.code).toBe(0);
    filterAnswer = '{"conditions":[{"key":"author","op":"start with","value":"ali"}]}';
    const r = await postSse(
      server,
      '/v1/conversation/ask',
      { question: 'solar panel report', kb_ids: [], search_id: searchId },
      owner.token,
    );
    expect(docIdsOf(answers(r).at(-1)!.reference.chunks)).toEqual(ids('alice'));
    // Retrieval testing with the app's id takes its filter too.
    const tested = await retrievalTest({ search_id: searchId });
    expect(docIdsOf(tested.chunks)).toEqual(ids('alice'));
  });
});

describe('public API and agents', () => {
  it('/api/v1/retrieval filters by metadata_condition', async () => {
    const key = await apiKeyOf(server, owner);
    const res = await api<{ total: number; chunks: Array<{ document_id: string }> }>(
      server,
      key,
      'POST',
      '/api/v1/retrieval',
      {
        question: 'solar panel report',
        dataset_ids: [kbId],
        similarity_threshold: 0,
        metadata_condition: {
          logic: 'or',
          conditions: [
            { name: 'author', comparison_operator: 'is', value: 'Bob' },
            { name: 'year', comparison_operator: '>=', value: '2024' },
          ],
        },
      },
    );
    expect(res.code, res.message).toBe(0);
    expect(docIdsOf(res.data!.chunks)).toEqual(ids('alice', 'bob'));
    const none = await api<{ total: number }>(server, key, 'POST', '/api/v1/retrieval', {
      question: 'solar panel report',
      dataset_ids: [kbId],
      metadata_condition: { conditions: [{ name: 'author', comparison_operator: 'is', value: 'Nobody' }] },
    });
    expect(none.data!.total).toBe(0);
  });

  it('chats_openai applies extra_body.metadata_condition and returns the documents’ metadata', async () => {
    const key = await apiKeyOf(server, owner);
    const dialog = await createDialog(server, owner, {
      name: 'OpenAI filtered',
      kb_ids: [kbId],
      similarity_threshold: 0,
      prompt_config: { system: 'Answer from the knowledge.\n{knowledge}', empty_response: 'Nothing.' },
    });
    const res = (await api(server, key, 'POST', `/api/v1/chats_openai/${dialog.id}/chat/completions`, {
      model: 'any',
      stream: false,
      messages: [{ role: 'user', content: 'solar panel report' }],
      extra_body: {
        reference: true,
        reference_metadata: { include: true, fields: ['author'] },
        metadata_condition: { conditions: [{ name: 'author', comparison_operator: 'is', value: 'Alice' }] },
      },
    })) as unknown as {
      choices: Array<{ message: { reference: Array<{ document_id: string; document_metadata: unknown }> } }>;
    };
    const refs = res.choices[0].message.reference;
    expect(docIdsOf(refs)).toEqual(ids('alice'));
    expect(refs[0].document_metadata).toEqual({ author: 'Alice' });
  });

  it('the agent Retrieval component’s meta_data_filter applies through the retrieval port', async () => {
    const port = agentRetrievalPort(server.ctx, owner.id);
    const base: RetrievalRequest = {
      query: 'solar panel report',
      datasets: [kbId],
      memoryIds: [],
      topN: 8,
      topK: 1024,
      similarityThreshold: 0,
      vectorSimilarityWeight: 0.5,
      rerankId: '',
      useKg: false,
      crossLanguages: [],
      tocEnhance: false,
      from: 'dataset',
      metaDataFilter: {},
    };
    const signal = new AbortController().signal;
    const filtered = await port.retrieve(
      { ...base, metaDataFilter: { method: 'manual', manual: [{ key: 'year', op: '≤', value: 2019 }] } },
      { signal },
    );
    expect(docIdsOf(filtered.chunks)).toEqual(ids('bob'));
    const all = await port.retrieve(base, { signal });
    expect(docIdsOf(all.chunks)).toEqual(ids('alice', 'bob', 'bare'));
  });
});

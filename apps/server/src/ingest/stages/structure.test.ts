/**
 * Structure-aware chunking over HTTP with the stand-in chat model (API.md §19.6, §19.7, §19.5):
 * `children_delimiter` (lists show parents, retrieval matches children and returns parents),
 * `toc_extraction` + `toc_enhance`, and the Table method's field map on the KB.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAIStandin, type Standin } from '../../../test/standins/index.js';
import { textOf } from '../../../test/standins/openai.js';
import { wireModels } from '../../chat/test-fixtures.js';
import { createKb, runDocs, uploadDocs, waitSettled } from '../../modules/kb/test-support.js';
import { api, apiKeyOf } from '../../modules/public-api/test-support.js';
import { startTaskWorkers } from '../../root.js';
import type { WorkerHost } from '../../queue/worker-host.js';
import { TOC_KIND, tocEntriesOf } from './toc.js';

const GUIDE = [
  'Installation of the tool. Download the package first.\nRun the installer wizard.\nAccept the licence terms.',
  'Configuration of the tool. Edit the settings file.\nSet the port number.\nSave and reload.',
  'Troubleshooting the tool. Read the error journal.\nRestart the daemon process.\nAsk support.',
].join('##');

const TOC_ANSWER = JSON.stringify([
  { title: 'Installation', level: 1, chunks: [0] },
  { title: 'Configuration', level: 1, chunks: [1] },
  { title: 'Troubleshooting', level: 2, chunks: ['2'] },
  { title: '', level: 1, chunks: [0] },
  'not an entry',
  { title: 'Out of range', level: 1, chunks: [99] },
]);

interface ListedChunk {
  chunk_id: string;
  content_with_weight: string;
  available_int: number;
  mom_id?: string;
}

describe('structure-aware chunking (children, TOC, table field map)', () => {
  let server: TestServer;
  let host: WorkerHost;
  let llm: Standin;
  let alice: TestUser;
  let key: string;
  beforeAll(async () => {
    llm = await startOpenAIStandin({
      embeddingDim: 16,
      reply: (body) => {
        const prompt = body.messages.map((m) => textOf(m.content)).join('\n');
        if (prompt.includes('table of contents of a document'))
          return `Here it is:\n\`\`\`json\n${TOC_ANSWER}\n\`\`\``;
        if (prompt.includes('pick the sections')) {
          const n = /\[(\d+)\][^\n]*Troubleshooting/.exec(prompt)?.[1];
          return n ? `[${n}]` : '[]';
        }
        return 'ok';
      },
    });
    server = await startTestServer();
    host = await startTaskWorkers(server.ctx, { pollMs: 100, tickMs: 200 });
    alice = await newUser(server, 'alice');
    await wireModels(server, alice, llm);
    key = await apiKeyOf(server, alice);
  });
  afterAll(async () => {
    await host.stop();
    await server.close();
    await llm.close();
  });

  async function parsed(
    parserConfig: Record<string, unknown>,
    name = 'guide.txt',
    data = GUIDE,
    parserId = 'naive',
  ) {
    const kb = await createKb(server, alice.token, {
      name: `KB ${Math.random()}`,
      embd_id: '',
      parser_id: parserId,
      parser_config: { delimiter: '`##`', ...parserConfig },
    });
    const [doc] = await uploadDocs(server, alice.token, kb, [{ name, data }]);
    await runDocs(server, alice.token, [doc.id]);
    const settled = (await waitSettled(server, alice.token, kb)).get(doc.id)!;
    return { kb, docId: doc.id, settled };
  }

  async function listed(docId: string, keywords = ''): Promise<ListedChunk[]> {
    const res = await call<{ chunks: ListedChunk[]; total: number }>(server, '/v1/chunk/list', {
      token: alice.token,
      body: { doc_id: docId, page: 1, size: 50, keywords },
    });
    expect(res.body.code).toBe(0);
    return res.body.data!.chunks;
  }

  async function retrievalTest(kb: string, question: string) {
    const res = await call<{ chunks: Array<{ chunk_id: string; content_with_weight: string }> }>(
      server,
      '/v1/chunk/retrieval_test',
      { token: alice.token, body: { kb_id: kb, question } },
    );
    expect(res.body.code).toBe(0);
    return res.body.data!.chunks;
  }

  it('children_delimiter: lists and counts the parents, matches children, returns their parent', async () => {
    const { kb, docId, settled } = await parsed({ children_delimiter: '\n' });
    expect(settled.run).toBe('3');
    expect(settled.chunk_num).toBe(3);
    const parents = await listed(docId);
    expect(parents.map((c) => c.content_with_weight)).toEqual(GUIDE.split('##'));
    expect(parents.every((c) => !c.mom_id)).toBe(true);
    // Nine children are in the index, each pointing to its parent.
    const index = server.ctx.chunkIndex;
    const all = await index.list({ kbIds: [kb], withChildren: true }, 'position', 0, 100);
    const children = all.chunks.filter((c) => c.mom_id);
    expect(children).toHaveLength(9);
    const installation = parents[0].chunk_id;
    expect(children.filter((c) => c.mom_id === installation).map((c) => c.content_with_weight)).toEqual([
      'Installation of the tool. Download the package first.',
      'Run the installer wizard.',
      'Accept the licence terms.',
    ]);

    // Two children of the installation chunk match: the parent comes back once, whole.
    const hits = await retrievalTest(kb, 'installer wizard licence');
    expect(hits).toHaveLength(1);
    expect(hits[0].chunk_id).toBe(installation);
    expect(hits[0].content_with_weight).toBe(GUIDE.split('##')[0]);
    // A word of the parent's first child only: still the parent, never a child.
    const daemon = await retrievalTest(kb, 'daemon');
    expect(daemon.map((h) => h.chunk_id)).toEqual([parents[2].chunk_id]);

    // The chunk list's keyword search shows the parent of the matching child.
    expect((await listed(docId, 'daemon')).map((c) => c.chunk_id)).toEqual([parents[2].chunk_id]);

    // Disabling the parent disables its children: retrieval no longer finds it.
    const sw = await call(server, '/v1/chunk/switch', {
      token: alice.token,
      body: { doc_id: docId, chunk_ids: [parents[2].chunk_id], available_int: 0 },
    });
    expect(sw.body.code).toBe(0);
    expect(await retrievalTest(kb, 'daemon')).toEqual([]);

    // Editing a parent re-splits it: the old children are gone, the new ones match.
    const set = await call(server, '/v1/chunk/set', {
      token: alice.token,
      body: {
        doc_id: docId,
        chunk_id: parents[1].chunk_id,
        content_with_weight: 'Configuration again.\nChoose a theme colour.',
      },
    });
    expect(set.body.code).toBe(0);
    expect(await retrievalTest(kb, 'port number')).toEqual([]);
    const theme = await retrievalTest(kb, 'theme colour');
    expect(theme.map((h) => [h.chunk_id, h.content_with_weight])).toEqual([
      [parents[1].chunk_id, 'Configuration again.\nChoose a theme colour.'],
    ]);

    // Removing a parent removes its children.
    const rm = await call(server, '/v1/chunk/rm', {
      token: alice.token,
      body: { doc_id: docId, chunk_ids: [installation] },
    });
    expect(rm.body.code).toBe(0);
    const left = await index.list({ kbIds: [kb], withChildren: true }, 'position', 0, 100);
    expect(left.chunks.some((c) => c.id === installation || c.mom_id === installation)).toBe(false);
    const detail = await call<{ chunk_num: number }>(server, `/v1/kb/detail?kb_id=${kb}`, {
      token: alice.token,
    });
    expect(detail.body.data!.chunk_num).toBe(2);
  });

  it('toc_extraction stores the TOC; toc_enhance puts the chunks of the picked entry first', async () => {
    const { kb, docId, settled } = await parsed({ toc_extraction: true });
    expect(settled.run).toBe('3');
    expect(settled.chunk_num).toBe(3);
    expect(settled.progress_msg).toContain('Table of contents: 3 entries (3 malformed entries skipped).');
    const parents = await listed(docId);
    expect(parents).toHaveLength(3);
    const tocs = await server.ctx.chunkIndex.list(
      { kbIds: [kb], docIds: [docId], graphKinds: [TOC_KIND] },
      'newest',
      0,
      5,
    );
    expect(tocs.chunks).toHaveLength(1);
    expect(tocEntriesOf(tocs.chunks[0].content_with_weight)).toEqual([
      { title: 'Installation', level: 1, chunk_ids: [parents[0].chunk_id] },
      { title: 'Configuration', level: 1, chunk_ids: [parents[1].chunk_id] },
      { title: 'Troubleshooting', level: 2, chunk_ids: [parents[2].chunk_id] },
    ]);

    const ask = (toc_enhance: boolean) =>
      api<{ chunks: Array<{ id: string }>; total: number }>(server, key, 'POST', '/api/v1/retrieval', {
        question: 'installer wizard',
        dataset_ids: [kb],
        toc_enhance,
      });
    const plain = await ask(false);
    expect(plain.code).toBe(0);
    expect(plain.data!.chunks.map((c) => c.id)).toEqual([parents[0].chunk_id]);
    const enhanced = await ask(true);
    expect(enhanced.code).toBe(0);
    // The stand-in model picks the Troubleshooting entry: its chunk is added, first.
    expect(enhanced.data!.chunks.map((c) => c.id)).toEqual([parents[2].chunk_id, parents[0].chunk_id]);
    expect(enhanced.data!.total).toBe(plain.data!.total + 1);
  });

  it('a failing model leaves a log line and a parsed document without a TOC', async () => {
    llm.fail('500', 20);
    const { kb, docId, settled } = await parsed({ toc_extraction: true });
    expect(settled.run).toBe('3');
    expect(settled.chunk_num).toBe(3);
    expect(settled.progress_msg).toMatch(
      /Table of contents extraction failed \(.+\); continuing without it\./,
    );
    const tocs = await server.ctx.chunkIndex.list(
      { kbIds: [kb], docIds: [docId], graphKinds: [TOC_KIND] },
      'newest',
      0,
      5,
    );
    expect(tocs.chunks).toHaveLength(0);
  });

  it('table method: detected column types become the KB field map and typed row fields', async () => {
    const csv = 'Name,Price,Stock,Released,Active\nLamp,12.5,3,2024-01-05,yes\nDesk,99,10,2023-11-30,no\n';
    const { kb, docId, settled } = await parsed({}, 'items.csv', csv, 'table');
    expect(settled.run).toBe('3');
    expect(settled.progress_msg).toContain('Field map: 5 typed columns.');
    const detail = await call<{ parser_config: { field_map: Record<string, string> } }>(
      server,
      `/v1/kb/detail?kb_id=${kb}`,
      { token: alice.token },
    );
    expect(detail.body.data!.parser_config.field_map).toEqual({
      name_tks: 'Name',
      price_flt: 'Price',
      stock_long: 'Stock',
      released_dt: 'Released',
      active_kwd: 'Active',
    });
    const rows = await listed(docId);
    expect(rows).toHaveLength(2);
    const lampId = rows.find((r) => r.content_with_weight.includes('Lamp'))!.chunk_id;
    const lamp = await call(server, `/v1/chunk/get?chunk_id=${lampId}`, { token: alice.token });
    expect(lamp.body.data).toMatchObject({
      price_flt: 12.5,
      stock_long: 3,
      released_dt: '2024-01-05 00:00:00',
      active_kwd: 'yes',
    });
  });
});

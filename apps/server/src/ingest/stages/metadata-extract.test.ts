/**
 * `enable_metadata` during parsing (API.md §19.7): the KB's metadata settings
 * (`kb/update_metadata_setting`) drive one extraction per task with the tenant's chat model; the values
 * land in the document's metadata (what `document/metadata/summary` and the filters read), merged with
 * what the document already had. A model failure is a progress line, not a failed parse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAIStandin, type OpenAIChatBody, type Standin } from '../../../test/standins/index.js';
import { textOf } from '../../../test/standins/openai.js';
import { createKb, runDocs, uploadDocs, waitSettled } from '../../modules/kb/test-support.js';
import { parseJson } from '../../db/json.js';
import { startTaskWorkers } from '../../root.js';
import type { WorkerHost } from '../../queue/worker-host.js';

const SETTINGS = {
  type: 'object',
  properties: {
    author: { type: 'string', description: 'Who wrote the document' },
    year: { type: 'number', description: 'Year of writing' },
    kind: { type: 'string', enum: ['memo', 'report'] },
  },
};

let server: TestServer;
let host: WorkerHost;
let llm: Standin;
let alice: TestUser;
let chatId: string;
/** The stand-in's answer to the metadata prompt: text, or a failure. */
let metadataReply: () => string = () => '{}';

function isMetadataPrompt(body: OpenAIChatBody): boolean {
  return textOf(body.messages[0]?.content).includes('You extract metadata of a document');
}

beforeAll(async () => {
  llm = await startOpenAIStandin({ reply: (b) => (isMetadataPrompt(b) ? metadataReply() : 'ok') });
  server = await startTestServer({ MODEL_MAX_RETRIES: '0' });
  host = await startTaskWorkers(server.ctx, { pollMs: 100, tickMs: 200 });
  alice = await newUser(server, 'metaextract');
  const res = await call(server, '/v1/llm/add_llm', {
    token: alice.token,
    body: {
      llm_factory: 'OpenAI-API-Compatible',
      llm_name: 'extractor',
      model_type: 'chat',
      api_base: `${llm.url}/v1`,
      api_key: 'k',
    },
  });
  expect(res.body.code).toBe(0);
  chatId = 'extractor@OpenAI-API-Compatible';
});

afterAll(async () => {
  await host?.stop();
  await server?.close();
  await llm?.close();
});

async function kbWithSettings(name: string, enable: boolean): Promise<string> {
  const kb = await createKb(server, alice.token, { name, parser_config: { llm_id: chatId } });
  const set = await call(server, '/v1/kb/update_metadata_setting', {
    token: alice.token,
    body: { kb_id: kb, metadata: SETTINGS, enable_metadata: enable },
  });
  expect(set.body.code).toBe(0);
  return kb;
}

async function parsed(kb: string, file: string, text: string) {
  const [doc] = await uploadDocs(server, alice.token, kb, [{ name: file, data: text }]);
  await runDocs(server, alice.token, [doc.id]);
  const settled = (await waitSettled(server, alice.token, kb)).get(doc.id)!;
  const row = await server.ctx.db.kysely
    .selectFrom('document')
    .select('meta_fields')
    .where('id', '=', doc.id)
    .executeTakeFirstOrThrow();
  return { doc, settled, meta: parseJson<Record<string, unknown>>(row.meta_fields, {}) };
}

describe('enable_metadata: metadata extracted while parsing', () => {
  it('stores the fields the model found, typed and restricted to the settings, in the document metadata', async () => {
    metadataReply = () =>
      '```json\n{"author": "Alice Smith", "year": "2021", "kind": "Report", "colour": "red"}\n```';
    llm.requests.length = 0;
    const kb = await kbWithSettings('Extracted', true);
    const { doc, settled, meta } = await parsed(kb, 'report.txt', 'Annual report by Alice Smith, 2021.');
    expect(settled.run, settled.progress_msg).toBe('3');
    expect(settled.progress_msg).toContain('Start to generate metadata.');
    expect(settled.progress_msg).toMatch(/Metadata generated: author, kind, year \(/);
    expect(meta).toEqual({ author: 'Alice Smith', year: 2021, kind: 'report' });
    // The prompt carried the settings' fields and the document text.
    const prompt = llm
      .modelCalls()
      .map((c) => c.body as OpenAIChatBody)
      .find(isMetadataPrompt)!;
    const user = textOf(prompt.messages[1].content);
    expect(user).toContain('"author" (a short text): Who wrote the document');
    expect(user).toContain('"kind" (a short text; one of: "memo", "report")');
    expect(user).toContain('Annual report by Alice Smith, 2021.');
    // The summary route and a metadata filter see the extracted values.
    const summary = await call<Record<string, unknown>>(server, '/v1/document/metadata/summary', {
      token: alice.token,
      body: { kb_id: kb },
    });
    expect(summary.body.data).toMatchObject({ summary: { author: [['Alice Smith', 1]] } });
    const listed = await call<{ total: number; docs: Array<{ id: string }> }>(
      server,
      `/v1/document/list?kb_id=${kb}`,
      {
        token: alice.token,
        body: {
          metadata_condition: { conditions: [{ name: 'year', comparison_operator: '>', value: 2020 }] },
        },
      },
    );
    expect(listed.body.data!.docs.map((d) => d.id)).toEqual([doc.id]);
  });

  it('merges with metadata the document already had on a re-parse', async () => {
    metadataReply = () => '{"author": "Alice Smith"}';
    const kb = await kbWithSettings('Merged', true);
    const first = await parsed(kb, 'memo.txt', 'A memo.');
    expect(first.meta).toEqual({ author: 'Alice Smith' });
    const set = await call(server, '/v1/document/metadata/update', {
      token: alice.token,
      body: { kb_id: kb, doc_ids: [first.doc.id], updates: [{ key: 'owner', value: 'ops' }] },
    });
    expect(set.body.code).toBe(0);
    metadataReply = () => '{"author": "Bob Jones", "year": 1999}';
    await runDocs(server, alice.token, [first.doc.id], { delete: true });
    await waitSettled(server, alice.token, kb);
    const row = await server.ctx.db.kysely
      .selectFrom('document')
      .select('meta_fields')
      .where('id', '=', first.doc.id)
      .executeTakeFirstOrThrow();
    expect(parseJson(row.meta_fields, {})).toEqual({
      author: ['Alice Smith', 'Bob Jones'],
      owner: 'ops',
      year: 1999,
    });
  });

  it('a model failure or a non-JSON answer is a progress line; the parse succeeds', async () => {
    const kb = await kbWithSettings('Failing', true);
    llm.fail('500', 1);
    metadataReply = () => '{}';
    const failed = await parsed(kb, 'broken.txt', 'Text that the model cannot read.');
    expect(failed.settled.run, failed.settled.progress_msg).toBe('3');
    expect(failed.settled.progress_msg).toMatch(
      /Metadata extraction failed \(.+\); the document keeps its metadata\./,
    );
    expect(failed.meta).toEqual({});
    metadataReply = () => 'Sorry, no idea.';
    const prose = await parsed(kb, 'prose.txt', 'More text.');
    expect(prose.settled.run).toBe('3');
    expect(prose.settled.progress_msg).toContain(
      'Metadata extraction skipped: the model answered no JSON object.',
    );
    expect(prose.meta).toEqual({});
  });

  it('with enable_metadata off nothing is asked', async () => {
    llm.requests.length = 0;
    const kb = await kbWithSettings('Off', false);
    const { settled, meta } = await parsed(kb, 'off.txt', 'Nothing to extract here.');
    expect(settled.run).toBe('3');
    expect(settled.progress_msg).not.toContain('metadata');
    expect(meta).toEqual({});
    expect(
      llm
        .modelCalls()
        .map((c) => c.body as OpenAIChatBody)
        .some(isMetadataPrompt),
    ).toBe(false);
  });
});

/**
 * Chat over table KBs answers through a structured query (API.md §19.7, RAGFlow `use_sql`), over
 * HTTP with real parsing of CSV files into a `table` KB and the stand-in chat model writing the SQL:
 * success with cited rows, an SQL error retried once with the error, refused statements, an empty
 * result and mixed KBs falling back to retrieval. The two CSVs type Price differently (whole numbers in
 * one, decimals in the other): the KB has one `price_flt` column over the rows of both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAIStandin, type OpenAIChatBody, type Standin } from '../../../test/standins/index.js';
import { textOf } from '../../../test/standins/openai.js';
import { answers, createConversation, createDialog, postSse, wireModels } from '../../chat/test-fixtures.js';
import { createKb, runDocs, uploadDocs, waitSettled } from '../kb/test-support.js';
import { apiKeyOf } from '../public-api/test-support.js';
import { startTaskWorkers } from '../../root.js';
import type { WorkerHost } from '../../queue/worker-host.js';

const ITEMS = 'Name,Price,Stock,Released\nLamp,12,3,2024-01-05\nDesk,99,10,2023-11-30\n';
const MORE = 'Name,Price,Stock,Released\nChair,45.5,7,2022-03-01\n';
const RETRIEVAL_ANSWER = 'Answered from the retrieved rows.';

let server: TestServer;
let host: WorkerHost;
let llm: Standin;
let user: TestUser;
let tableKb: string;
let tableDialog: string;
let mixedDialog: string;
/** What the stand-in answers to each SQL prompt, in turn. */
let sqlAnswers: string[] = [];
let sqlPrompts: string[] = [];

const isSqlPrompt = (b: OpenAIChatBody) =>
  b.messages.some((m) => m.role === 'system' && textOf(m.content).includes('Database Administrator'));

async function parsedKb(parserId: string, files: Array<{ name: string; data: string }>): Promise<string> {
  const kb = await createKb(server, user.token, { parser_id: parserId });
  const docs = await uploadDocs(server, user.token, kb, files);
  await runDocs(
    server,
    user.token,
    docs.map((d) => d.id),
  );
  const settled = await waitSettled(server, user.token, kb);
  for (const d of settled.values()) expect(d.run, d.progress_msg).toBe('3');
  return kb;
}

async function ask(dialogId: string, question: string) {
  sqlPrompts = [];
  const conv = await createConversation(server, user, dialogId);
  const r = await postSse(
    server,
    '/v1/conversation/completion',
    { conversation_id: conv, messages: [{ role: 'user', content: question, id: 'q1' }] },
    user.token,
  );
  expect(r.status).toBe(200);
  const events = answers(r);
  if (events.length === 0) throw new Error(r.raw);
  const final = events[events.length - 1];
  expect(final.final).toBe(true);
  return { answer: events.map((e) => e.answer).join(''), final, conv };
}

beforeAll(async () => {
  llm = await startOpenAIStandin({
    reply: (b) => {
      if (!isSqlPrompt(b)) return RETRIEVAL_ANSWER;
      sqlPrompts.push(textOf(b.messages[b.messages.length - 1].content));
      return sqlAnswers.shift() ?? 'no idea';
    },
  });
  server = await startTestServer({ MODEL_MAX_RETRIES: '0' });
  host = await startTaskWorkers(server.ctx, { pollMs: 100, tickMs: 200 });
  user = await newUser(server, 'tabular');
  await wireModels(server, user, llm);
  tableKb = await parsedKb('table', [
    { name: 'items.csv', data: ITEMS },
    { name: 'more.csv', data: MORE },
  ]);
  const notesKb = await parsedKb('naive', [
    { name: 'notes.txt', data: 'A lamp needs a bulb. A desk needs a chair.' },
  ]);
  const prompt_config = { system: 'Answer from the knowledge.\n{knowledge}', empty_response: '' };
  tableDialog = (
    await createDialog(server, user, {
      name: 'Stock',
      kb_ids: [tableKb],
      similarity_threshold: 0,
      prompt_config,
    })
  ).id;
  mixedDialog = (
    await createDialog(server, user, {
      name: 'Mixed',
      kb_ids: [tableKb, notesKb],
      similarity_threshold: 0,
      prompt_config,
    })
  ).id;
}, 120_000);

afterAll(async () => {
  await host?.stop();
  await server?.close();
  await llm?.close();
});

describe('structured queries over table KBs', () => {
  it('answers with the rows as a Markdown table citing each row chunk', async () => {
    sqlAnswers = [
      '```sql\nSELECT name_tks, price_flt FROM kb_rows WHERE price_flt > 20 ORDER BY price_flt;\n```',
    ];
    const { answer, final, conv } = await ask(tableDialog, 'Which items cost more than 20?');
    expect(sqlPrompts).toHaveLength(1);
    expect(sqlPrompts[0]).toContain('Table name: kb_rows;');
    expect(sqlPrompts[0]).toContain('price_flt: Price (number)');
    expect(sqlPrompts[0]).toContain('stock_long: Stock (integer)');
    expect(sqlPrompts[0]).toContain('Which items cost more than 20?');
    expect(answer).toBe(
      [
        '|Name|Price|Source|',
        '|------|------|------|',
        '|Chair|45.5|more.csv [ID:0]|',
        '|Desk|99|items.csv [ID:1]|',
      ].join('\n'),
    );
    const chunks = final.reference.chunks;
    expect(chunks.map((c) => c.document_name ?? c.docnm_kwd)).toEqual(['more.csv', 'items.csv']);
    expect(String(chunks[0].content ?? chunks[0].content_with_weight)).toContain('Name: Chair');
    expect(final.reference.doc_aggs?.map((d) => d.doc_name).sort()).toEqual(['items.csv', 'more.csv']);
    expect(final.prompt).toContain('### SQL:');
    // No answer-writing call: the table is the answer (one SQL call in all).
    const stored = await call<{ message: Array<{ role: string; content: string }> }>(
      server,
      `/v1/conversation/get?conversation_id=${conv}`,
      { token: user.token },
    );
    expect(stored.body.data!.message.at(-1)).toMatchObject({ role: 'assistant', content: answer });
  });

  it('a column typed differently per document is one column of the wider type over both', async () => {
    const kb = await call<{ parser_config: { field_map: Record<string, string> } }>(
      server,
      `/v1/kb/detail?kb_id=${tableKb}`,
      { token: user.token },
    );
    expect(kb.body.data!.parser_config.field_map).toEqual({
      name_tks: 'Name',
      price_flt: 'Price',
      stock_long: 'Stock',
      released_dt: 'Released',
    });
    // The stored rows keep their own document's key.
    const rows = await server.ctx.chunkIndex.list({ kbIds: [tableKb] }, 'position', 0, 10);
    const lamp = rows.chunks.find((c) => c.content_with_weight.includes('Lamp'))!;
    expect(lamp.extra).toMatchObject({ price_long: 12 });

    sqlAnswers = ['SELECT sum(price_flt) AS total, count(price_flt) AS priced FROM kb_rows'];
    const sum = await ask(tableDialog, 'What do all items cost together?');
    expect(sqlPrompts[0].match(/^price_/gm)).toEqual(['price_']);
    expect(sum.answer).toBe('|total|priced|\n|------|------|\n|156.5|3|');

    sqlAnswers = ['SELECT name_tks FROM kb_rows WHERE price_flt < 50 ORDER BY price_flt'];
    const cheap = await ask(tableDialog, 'Which items cost less than 50?');
    expect(cheap.answer).toBe(
      '|Name|Source|\n|------|------|\n|Lamp|items.csv [ID:0]|\n|Chair|more.csv [ID:1]|',
    );
  });

  it('aggregates run as written (no row citations)', async () => {
    sqlAnswers = ['SELECT sum(stock_long) AS total_stock FROM kb_rows'];
    const { answer, final } = await ask(tableDialog, 'How many items are in stock?');
    expect(answer).toBe('|total_stock|\n|------|\n|20|');
    expect(final.reference.chunks).toEqual([]);
  });

  it('gives the model one retry with the database error', async () => {
    sqlAnswers = ['SELECT nme_tks FROM kb_rows', 'SELECT name_tks FROM kb_rows WHERE stock_long < 5'];
    const { answer } = await ask(tableDialog, 'Which items are nearly sold out?');
    expect(sqlPrompts).toHaveLength(2);
    expect(sqlPrompts[1]).toContain(
      'The SQL you provided last time is as follows:\nSELECT nme_tks FROM kb_rows',
    );
    expect(sqlPrompts[1]).toContain('no such column: nme_tks');
    expect(answer).toBe('|Name|Source|\n|------|------|\n|Lamp|items.csv [ID:0]|');
  });

  it('two failed statements fall back to retrieval', async () => {
    sqlAnswers = ['SELECT nme_tks FROM kb_rows', 'SELECT still_wrong FROM kb_rows'];
    const { answer, final } = await ask(tableDialog, 'Which lamp is there?');
    expect(sqlPrompts).toHaveLength(2);
    expect(answer).toBe(RETRIEVAL_ANSWER);
    expect(final.reference.chunks.length).toBeGreaterThan(0);
  });

  it('refuses DROP, ATTACH, PRAGMA and several statements without a retry, answers by retrieval, keeps the data', async () => {
    for (const sql of [
      'DROP TABLE kb_rows',
      "ATTACH DATABASE 'lectern.db' AS ours",
      'PRAGMA table_info(kb_rows)',
      'SELECT * FROM kb_rows; DELETE FROM kb_rows',
      'WITH gone AS (SELECT 1) DELETE FROM kb_rows',
    ]) {
      sqlAnswers = [sql];
      const { answer, final } = await ask(tableDialog, 'Which lamp is there?');
      expect(sqlPrompts, sql).toHaveLength(1);
      expect(answer, sql).toBe(RETRIEVAL_ANSWER);
      expect(
        final.reference.chunks.some((c) => String(c.content ?? c.content_with_weight).includes('Lamp')),
      ).toBe(true);
    }
    const rows = await server.ctx.chunkIndex.list({ kbIds: [tableKb] }, 'position', 0, 10);
    expect(rows.total).toBe(3);
    const kb = await call(server, `/v1/kb/detail?kb_id=${tableKb}`, { token: user.token });
    expect(kb.body.code).toBe(0);
  });

  it('an empty result or an answer without SQL falls back to retrieval', async () => {
    for (const sql of ['SELECT name_tks FROM kb_rows WHERE price_flt > 100000', 'Sorry, I cannot tell.']) {
      sqlAnswers = [sql];
      const { answer, final } = await ask(tableDialog, 'Which desk is there?');
      expect(answer, sql).toBe(RETRIEVAL_ANSWER);
      expect(final.reference.chunks.length, sql).toBeGreaterThan(0);
    }
  });

  it('a chat over a table KB and a non-table KB takes the normal path', async () => {
    sqlAnswers = ['SELECT name_tks FROM kb_rows'];
    const { answer, final } = await ask(mixedDialog, 'Which lamp is there?');
    expect(sqlPrompts).toHaveLength(0);
    expect(answer).toBe(RETRIEVAL_ANSWER);
    expect(final.reference.chunks.length).toBeGreaterThan(0);
  });

  it('the OpenAI-compatible chat route answers through the same structured query', async () => {
    const key = await apiKeyOf(server, user);
    sqlPrompts = [];
    sqlAnswers = ["SELECT name_tks, stock_long FROM kb_rows WHERE released_dt >= '2024-01-01'"];
    const res = await call<never>(server, `/api/v1/chats_openai/${tableDialog}/chat/completions`, {
      headers: { Authorization: `Bearer ${key}` },
      body: {
        model: 'model',
        stream: false,
        messages: [{ role: 'user', content: 'What was released this year?' }],
        extra_body: { reference: true },
      },
    });
    const body = res.body as unknown as {
      choices: Array<{ message: { content: string; reference?: unknown } }>;
    };
    expect(sqlPrompts).toHaveLength(1);
    expect(body.choices[0].message.content).toBe(
      '|Name|Stock|Source|\n|------|------|------|\n|Lamp|3|items.csv [ID:0]|',
    );
  });
});

import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasSystemFont, rasterPng } from '../../../test/fixtures/pdf/raster.js';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAIStandin, type Standin } from '../../../test/standins/index.js';
import { textOf } from '../../../test/standins/openai.js';
import { createKb, runDocs, uploadDocs, waitSettled } from '../../modules/kb/test-support.js';
import { startTaskWorkers } from '../../root.js';
import type { WorkerHost } from '../../queue/worker-host.js';

interface StoredChunk {
  content_with_weight: string;
  tag_kwd: string[];
  tag_feas: Record<string, number>;
  doc_type_kwd?: string;
  img_id?: string;
}

async function chunksOf(server: TestServer, token: string, docId: string): Promise<StoredChunk[]> {
  const list = await call<{ chunks: Array<{ chunk_id: string }> }>(server, '/v1/chunk/list', {
    token,
    body: { doc_id: docId, size: 100 },
  });
  expect(list.body.code).toBe(0);
  const out: StoredChunk[] = [];
  for (const c of (list.body.data as { chunks: Array<{ chunk_id: string }> }).chunks) {
    const got = await call<StoredChunk>(server, `/v1/chunk/get?chunk_id=${c.chunk_id}`, {
      token,
      method: 'GET',
    });
    expect(got.body.code).toBe(0);
    out.push(got.body.data as StoredChunk);
  }
  return out;
}

const TAG_ROWS = [
  'Apples and pears grow in orchards and are picked by farmers.\tfruit, farming',
  'Bananas are a tropical fruit rich in potassium.\tfruit, nutrition',
  'The striker scored a late goal in the football match.\tsports, football',
  'The tennis player won the final set of the match.\tsports, tennis',
  'Interest rates rose and stock markets fell today.\tfinance',
].join('\n');

describe('auto-tagging from tag sets and picture descriptions (API.md §19.6, §19.7)', () => {
  let server: TestServer;
  let host: WorkerHost;
  let llm: Standin;
  let alice: TestUser;
  let visionId: string;
  beforeAll(async () => {
    llm = await startOpenAIStandin({
      reply: (body) => {
        const images = body.messages
          .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
          .filter((p) => (p as { type?: string }).type === 'image_url');
        const url = (images[0] as { image_url?: { url?: string } } | undefined)?.image_url?.url ?? '';
        if (url.startsWith('data:image/jpeg;base64,'))
          return `A red square picture (${images.length} image).`;
        return `No picture received: ${textOf(body.messages.at(-1)?.content)}`;
      },
    });
    server = await startTestServer();
    host = await startTaskWorkers(server.ctx, { pollMs: 100, tickMs: 200 });
    alice = await newUser(server, 'alice');
    const res = await call(server, '/v1/llm/add_llm', {
      token: alice.token,
      body: {
        llm_factory: 'OpenAI-API-Compatible',
        llm_name: 'seer',
        model_type: 'image2text',
        api_base: `${llm.url}/v1`,
        api_key: 'k',
      },
    });
    expect(res.body.code).toBe(0);
    const row = await server.ctx.db.kysely
      .selectFrom('tenant_llm')
      .selectAll()
      .where('tenant_id', '=', alice.id)
      .where('model_type', '=', 'image2text')
      .executeTakeFirstOrThrow();
    visionId = `${row.llm_name}@${row.llm_factory}`;
  });
  afterAll(async () => {
    await host.stop();
    await server.close();
    await llm.close();
  });

  it('tags the chunks of a KB listing a tag set with the topn_tags best tags (tag_feas + tag_kwd)', async () => {
    const tagKb = await createKb(server, alice.token, { name: 'Topics', parser_id: 'tag' });
    const [tagDoc] = await uploadDocs(server, alice.token, tagKb, [{ name: 'topics.txt', data: TAG_ROWS }]);
    await runDocs(server, alice.token, [tagDoc.id]);
    expect((await waitSettled(server, alice.token, tagKb)).get(tagDoc.id)!.run).toBe('3');
    const tagChunks = await chunksOf(server, alice.token, tagDoc.id);
    expect(tagChunks).toHaveLength(5);
    expect(tagChunks.every((c) => Object.keys(c.tag_feas).length === 0)).toBe(true);

    const kb = await createKb(server, alice.token, {
      name: 'News',
      parser_config: { delimiter: '`|`', tag_kb_ids: [tagKb], topn_tags: 2 },
    });
    const text = [
      'Farmers picked apples in the orchards this autumn.',
      'The football match ended with a late goal by the striker.',
      'Zebras zigzag.',
    ].join('|');
    const [doc] = await uploadDocs(server, alice.token, kb, [{ name: 'news.txt', data: text }]);
    await runDocs(server, alice.token, [doc.id]);
    const settled = (await waitSettled(server, alice.token, kb)).get(doc.id)!;
    expect(settled.run, settled.progress_msg).toBe('3');
    expect(settled.progress_msg).toMatch(/Tagging: 2 chunks tagged/);

    const chunks = await chunksOf(server, alice.token, doc.id);
    expect(chunks).toHaveLength(3);
    const byText = (s: string) => chunks.find((c) => c.content_with_weight.includes(s))!;
    const apples = byText('apples');
    expect(Object.keys(apples.tag_feas).sort()).toEqual(['farming', 'fruit']);
    expect(apples.tag_kwd.sort()).toEqual(['farming', 'fruit']);
    const football = byText('football');
    // The tennis row shares "match", but topn_tags 2 keeps only the two best tags.
    expect(Object.keys(football.tag_feas).sort()).toEqual(['football', 'sports']);
    expect(Object.values(football.tag_feas).every((v) => v > 0)).toBe(true);
    // Nothing in the tag set resembles the last line: no tags are invented.
    const zebras = byText('Zebras');
    expect(zebras.tag_feas).toEqual({});
    expect(zebras.tag_kwd).toEqual([]);

    // Default topn_tags 3: the tennis tag joins, ranked last.
    const defaultKb = await createKb(server, alice.token, {
      name: 'Default topn',
      parser_config: { tag_kb_ids: [tagKb] },
    });
    const [match] = await uploadDocs(server, alice.token, defaultKb, [
      { name: 'match.txt', data: 'The football match ended with a late goal by the striker.' },
    ]);
    await runDocs(server, alice.token, [match.id]);
    expect((await waitSettled(server, alice.token, defaultKb)).get(match.id)!.run).toBe('3');
    const [three] = await chunksOf(server, alice.token, match.id);
    const ranked = Object.entries(three.tag_feas)
      .sort((a, b) => b[1] - a[1])
      .map(([t]) => t);
    expect(ranked).toHaveLength(3);
    expect(ranked[2]).toBe('tennis');
    expect(ranked.slice(0, 2).sort()).toEqual(['football', 'sports']);

    // A KB naming a non-tag KB in tag_kb_ids skips tagging and says so.
    const plainKb = await createKb(server, alice.token, {
      name: 'Plain',
      parser_config: { tag_kb_ids: [kb] },
    });
    const [plain] = await uploadDocs(server, alice.token, plainKb, [
      { name: 'plain.txt', data: 'Apples in orchards.' },
    ]);
    await runDocs(server, alice.token, [plain.id]);
    const plainDone = (await waitSettled(server, alice.token, plainKb)).get(plain.id)!;
    expect(plainDone.progress_msg).toMatch(
      /Tagging skipped: none of the tag sets in tag_kb_ids is a tag knowledge base/,
    );
    expect((await chunksOf(server, alice.token, plain.id))[0].tag_kwd).toEqual([]);
  });

  it('without an image-to-text model a picture keeps its OCR text only, and the log says so', async () => {
    const kb = await createKb(server, alice.token, { name: 'Pictures without model' });
    const blank = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    const [doc] = await uploadDocs(server, alice.token, kb, [{ name: 'red.png', data: blank }]);
    await runDocs(server, alice.token, [doc.id]);
    const settled = (await waitSettled(server, alice.token, kb)).get(doc.id)!;
    expect(settled.run, settled.progress_msg).toBe('3');
    expect(settled.progress_msg).toMatch(
      /No image-to-text model is set; the picture keeps its OCR text only\./,
    );
    expect(settled.chunk_num).toBe(0); // no OCR text, no description: nothing to index
  });

  it('with the tenant image-to-text model a picture with no text becomes one chunk holding the description', async () => {
    await server.ctx.db.kysely
      .updateTable('tenant')
      .set({ img2txt_id: visionId })
      .where('id', '=', alice.id)
      .execute();
    const kb = await createKb(server, alice.token, { name: 'Pictures' });
    const blank = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    const [doc] = await uploadDocs(server, alice.token, kb, [{ name: 'red.png', data: blank }]);
    await runDocs(server, alice.token, [doc.id]);
    const settled = (await waitSettled(server, alice.token, kb)).get(doc.id)!;
    expect(settled.run, settled.progress_msg).toBe('3');
    expect(settled.progress_msg).toContain(`Use CV LLM ${visionId} to describe the picture.`);
    expect(settled.progress_msg).toContain('CV LLM respond: A red square picture');
    const [chunk] = await chunksOf(server, alice.token, doc.id);
    expect(chunk.content_with_weight).toBe('A red square picture (1 image).');
    expect(chunk.doc_type_kwd).toBe('image');
    expect(chunk.img_id).toBeTruthy();
  });

  // OCR needs a system font to draw the sign (the image parser tests skip the same way).
  it.skipIf(!hasSystemFont())('appends the description to the OCR text of a picture', async () => {
    await server.ctx.db.kysely
      .updateTable('tenant')
      .set({ img2txt_id: visionId })
      .where('id', '=', alice.id)
      .execute();
    const kb = await createKb(server, alice.token, { name: 'Signs' });
    const sign = rasterPng({
      width: 420,
      height: 120,
      dpi: 150,
      texts: [{ x: 20, y: 60, text: 'Lectern reads pictures', size: 24 }],
    });
    const [doc] = await uploadDocs(server, alice.token, kb, [{ name: 'sign.png', data: sign }]);
    await runDocs(server, alice.token, [doc.id]);
    const settled = (await waitSettled(server, alice.token, kb)).get(doc.id)!;
    expect(settled.run, settled.progress_msg).toBe('3');
    const [chunk] = await chunksOf(server, alice.token, doc.id);
    const [ocr, description] = chunk.content_with_weight.split('\n');
    expect(ocr).toMatch(/Lectern reads pictures/i);
    expect(description).toBe('A red square picture (1 image).');
  });
});

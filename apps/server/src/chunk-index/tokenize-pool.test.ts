import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFields } from './fields.js';
import { planQuery } from './query.js';
import { SqliteChunkIndex } from './sqlite-index.js';
import { columnTexts } from './sqlite-schema.js';
import { chunk } from './test-helpers.js';
import { createTokenizer, type Tokenizer } from './tokenize-pool.js';

const records = Array.from({ length: 20 }, (_, i) =>
  chunk({
    id: `t${i.toString(16).padStart(15, '0')}`,
    docnm_kwd: i % 2 ? 'Heat pumps.pdf' : '热泵手册.docx',
    content_with_weight:
      i % 2
        ? `Air-source heat pumps keep working down to minus ${20 + i} degrees; the compressor's efficiency drops.`
        : `空气源热泵在零下${20 + i}度仍能工作，压缩机效率会下降。`,
    important_kwd: ['compressor', '压缩机'],
    question_kwd: [`How cold can heat pump ${i} work?`],
  }),
);

let tokenizer: Tokenizer;
let dir: string;
beforeAll(() => {
  tokenizer = createTokenizer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-tokenizer-'));
});
afterAll(async () => {
  await tokenizer.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('tokenizer thread', () => {
  it('gives exactly the column texts the index computes inline (English and Chinese)', async () => {
    const texts = await tokenizer.columnTexts(records);
    expect(texts).toEqual(records.map((r) => columnTexts(tokenFields(r))));
    expect(texts[1].join(' ')).toContain('compressor');
    expect(texts[0].join(' ')).toContain('压缩机');
  }, 60_000);

  it('feeds bulk upserts that search the same as inline ones, and falls back inline once it is closed', async () => {
    const threaded = new SqliteChunkIndex(path.join(dir, 'threaded.sqlite'), tokenizer);
    const inline = new SqliteChunkIndex(path.join(dir, 'inline.sqlite'));
    const closed = createTokenizer();
    await closed.close();
    const fallback = new SqliteChunkIndex(path.join(dir, 'fallback.sqlite'), closed);
    try {
      for (const index of [threaded, inline, fallback]) await index.upsert(records);
      const ids = async (index: SqliteChunkIndex, question: string) => {
        const plan = await planQuery(question, (t) => index.termStats(t));
        const res = await index.search({
          filter: { kbIds: ['kb1'], available: 1 },
          text: plan!.text,
          vector: null,
          offset: 0,
          limit: 50,
        });
        return res.hits.map((h) => [h.chunk.id, h.textScore.toFixed(6)]);
      };
      for (const question of ['compressor efficiency minus 27 degrees', '压缩机效率']) {
        const expected = await ids(inline, question);
        expect(expected.length).toBeGreaterThan(0);
        expect(await ids(threaded, question)).toEqual(expected);
        expect(await ids(fallback, question)).toEqual(expected);
      }
    } finally {
      for (const index of [threaded, inline, fallback]) await index.close();
    }
  }, 60_000);
});

import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../../chunk-index/chunk-index.js';
import { childIdsOf, tokenFields } from '../../chunk-index/fields.js';
import { columnType, inferColumns } from '../chunkers/table.js';
import { lexicalPick, parsePicked } from '../../search/toc-enhance.js';
import { childTexts, embeddingInputs, familyRecords, planChildren } from './children.js';
import { parseTocAnswer, tocBatches } from './toc.js';

const base: ChunkRecord = {
  id: 'p000000000000001',
  doc_id: 'd1',
  kb_id: 'k1',
  tenant_id: 't1',
  docnm_kwd: 'guide.txt',
  content_with_weight: 'One. Two!\nThree',
  important_kwd: ['kw'],
  question_kwd: [],
  tag_kwd: [],
  tag_feas: {},
  img_id: 'img',
  positions: [],
  available_int: 1,
  create_time: 1,
  doc_type_kwd: null,
  mom_id: null,
  pagerank_fea: 0,
  token_num: 5,
  vector: null,
};

describe('children_delimiter splitting', () => {
  it('cuts at delimiter characters and back-quoted tokens, trims and drops empty pieces', () => {
    expect(childTexts('a b\n\nc d\n', '\n')).toEqual(['a b', 'c d']);
    expect(childTexts('a b\n\nc d\n', '\\n')).toEqual(['a b', 'c d']);
    expect(childTexts('x ## y##z', '`##`')).toEqual(['x', 'y', 'z']);
    expect(childTexts('one. two! three', '.!')).toEqual(['one.', 'two!', 'three']);
  });
  it('leaves a chunk that does not split (or only repeats itself) unsplit', () => {
    expect(childTexts('no delimiter here', '\n')).toEqual([]);
    expect(childTexts('same\nsame', '\n')).toEqual([]);
    expect(childTexts('a\nb', '')).toEqual([]);
    expect(planChildren([{ content_with_weight: 'a\nb', positions: [] }], '')).toEqual([[]]);
  });
  it('embeds children instead of their parent and builds parent + children records', () => {
    const drafts = [
      { content_with_weight: 'x\ny', positions: [], question_kwd: ['q?'] },
      { content_with_weight: 'z', positions: [], question_kwd: ['z?'] },
    ];
    const plan = planChildren(drafts, '\n');
    expect(embeddingInputs(drafts, plan).map((d) => [d.content_with_weight, d.question_kwd])).toEqual([
      ['x', undefined],
      ['y', undefined],
      ['z', ['z?']],
    ]);
    let n = 0;
    const records = familyRecords(base, ['One. Two!', 'Three'], () => [++n]);
    expect(records).toHaveLength(3);
    const [parent, ...kids] = records;
    expect(parent.vector).toBeNull();
    expect(childIdsOf(parent)).toEqual(kids.map((k) => k.id));
    expect(kids.map((k) => [k.content_with_weight, k.mom_id, k.vector, k.token_num, k.img_id])).toEqual([
      ['One. Two!', base.id, [1], 0, ''],
      ['Three', base.id, [2], 0, ''],
    ]);
    expect(kids[0].important_kwd).toEqual(['kw']);
    // The parent has no searchable tokens; its children do.
    expect(Object.values(tokenFields(parent)).every((t) => t.length === 0)).toBe(true);
    expect(tokenFields(kids[1]).content_ltks).toEqual(['three']);
    // Unsplit: the record itself with the next vector.
    expect(familyRecords(base, [], () => [7])).toEqual([{ ...base, vector: [7] }]);
  });
});

describe('TOC answers', () => {
  it('reads a fenced JSON array and skips malformed entries', () => {
    const answer =
      'Sure!\n```json\n[{"title":"A","level":1,"chunks":[0,1]},{"title":"B","level":"2","chunks":["1", 7]},' +
      '{"title":"","level":1,"chunks":[0]},{"title":"C","level":0,"chunks":[0]},{"title":"D","level":1,"chunks":[]},' +
      '42,{"title":"E","level":9,"chunk":1}]\n```';
    expect(parseTocAnswer(answer, 2)).toEqual({
      entries: [
        { title: 'A', level: 1, chunks: [0, 1] },
        { title: 'B', level: 2, chunks: [1] },
        { title: 'E', level: 6, chunks: [1] },
      ],
      skipped: 4,
      readable: true,
    });
  });
  it('reports unreadable answers (no array, broken JSON, empty answer)', () => {
    for (const bad of ['', 'I cannot help with that.', '[{"title": "A", "level": 1,', '{"title":"A"}'])
      expect(parseTocAnswer(bad, 3)).toEqual({ entries: [], skipped: 0, readable: false });
  });
  it('batches chunk snippets by size, numbering them across batches', () => {
    const batches = tocBatches(Array.from({ length: 100 }, (_, i) => `<b>chunk</b> ${i} ${'x'.repeat(400)}`));
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.flat().map((s) => s.n)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(batches.flat()[0].text.startsWith('chunk 0')).toBe(true);
    expect(Math.max(...batches.flat().map((s) => s.text.length))).toBe(300);
  });
  it('reads the picked entry numbers, or falls back to title words', () => {
    expect(parsePicked('[2, "0", 2, 9, -1]', 3)).toEqual([2, 0]);
    expect(parsePicked('nothing relevant', 3)).toBeNull();
    const entries = [
      { doc_id: 'd', title: 'Installing the tool', level: 1, chunk_ids: ['a'] },
      { doc_id: 'd', title: 'Tool configuration and port settings', level: 1, chunk_ids: ['b'] },
    ];
    expect(lexicalPick('how do I change the port settings?', entries)).toEqual([1]);
    expect(lexicalPick('what is it?', entries)).toEqual([]);
  });
});

describe('table field types', () => {
  it('detects int, float, datetime, bool, text and enumerated keyword columns', () => {
    expect(columnType([1, '2', '3,000'])).toBe('int');
    expect(columnType(['1', '2.5'])).toBe('float');
    expect(columnType(['2024-01-05', '2023/11/30 10:00'])).toBe('datetime');
    expect(columnType(['yes', 'no', 'Y'])).toBe('bool');
    expect(columnType(['red', 'blue', '3'])).toBe('text');
    const cols = inferColumns(['Colour(red, blue)', 'Price', 'Price', 'Price'], [['red', '1.5', '2', '3']]);
    expect(cols.map((c) => [c.key, c.type])).toEqual([
      ['colour_kwd', 'keyword'],
      ['price_flt', 'float'],
      ['price_long', 'int'],
      ['price_2_long', 'int'],
    ]);
  });
});

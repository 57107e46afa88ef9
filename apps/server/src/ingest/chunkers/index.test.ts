import { CHUNK_METHOD_LABELS, CHUNK_METHODS } from '@lectern/shared';
import { describe, expect, it } from 'vitest';
import { CHUNK_METHOD_INPUTS, CHUNKER_METHODS, chunkDocument, methodAccepts } from './index.js';
import { ctx, doc, figure, row, table, text, title } from './test-fixtures.js';

const mixed = () =>
  doc([
    title('Chapter 1 Overview', 1, { positions: [[1, 50, 500, 40, 60]] }),
    text('Q: What does the system do?\nA: It answers questions.', [[1, 50, 500, 70, 110]]),
    text('   ', [[1, 50, 500, 115, 118]]),
    text('Article 1 Scope\n(1) It applies everywhere.\tscope, rules', [[1, 50, 500, 120, 160]]),
    table('<table><tr><td>a</td><td>b</td></tr><tr><td>1</td><td>2</td></tr></table>', 'a b\n1 2', [
      [2, 50, 500, 40, 140],
    ]),
    figure('Figure 1: overview diagram', Buffer.from('png'), [[2, 50, 500, 150, 300]]),
    { kind: 'footer', text: 'Page 2 of 9' },
    text('Jane Doe jane@example.com', [[3, 50, 500, 40, 60]]),
  ]);

describe('chunkDocument', () => {
  it('supports every chunk method of SPEC §9, plus general, email and audio', () => {
    for (const m of CHUNK_METHODS) {
      expect(CHUNKER_METHODS).toContain(m);
      expect(CHUNK_METHOD_LABELS[m]).toBeTruthy();
    }
    expect(CHUNKER_METHODS).toEqual(expect.arrayContaining(['general', 'email', 'audio']));
    expect(() => chunkDocument('nope', doc([text('x')]), ctx())).toThrow('Unknown chunk method: nope');
  });

  it.each([...CHUNK_METHODS, 'general', 'email', 'audio'])(
    '%s: non-empty trimmed content, well-formed positions, deterministic output',
    (method) => {
      const first = chunkDocument(method, mixed(), ctx({ chunk_token_num: 64 }, 'mixed.pdf'));
      expect(first.length).toBeGreaterThan(0);
      for (const c of first) {
        expect(c.content_with_weight.trim()).toBe(c.content_with_weight);
        expect(c.content_with_weight.length).toBeGreaterThan(0);
        expect(Array.isArray(c.positions)).toBe(true);
        for (const p of c.positions) {
          expect(p).toHaveLength(5);
          expect(p.every((n) => Number.isFinite(n))).toBe(true);
        }
      }
      expect(chunkDocument(method, mixed(), ctx({ chunk_token_num: 64 }, 'mixed.pdf'))).toEqual(first);
    },
  );

  it('gives non-PDF documents empty position lists', () => {
    const d = doc([text('plain text line'), row('S', ['a', 'b'], ['1', '2'])]);
    for (const m of ['naive', 'one', 'table', 'qa', 'tag', 'laws', 'book', 'manual']) {
      for (const c of chunkDocument(m, d, ctx({}, 'x.xlsx'))) expect(c.positions).toEqual([]);
    }
  });
});

describe('CHUNK_METHOD_INPUTS', () => {
  it('lists the inputs of API.md §19.7', () => {
    expect(CHUNK_METHOD_INPUTS.paper).toEqual(['pdf']);
    expect(CHUNK_METHOD_INPUTS.manual).toEqual(['pdf', 'docx']);
    expect(CHUNK_METHOD_INPUTS.presentation).toEqual(['pdf', 'ppt', 'pptx']);
    expect(CHUNK_METHOD_INPUTS.table).toEqual(['xlsx', 'xls', 'csv', 'txt']);
    expect(CHUNK_METHOD_INPUTS.knowledge_graph).toEqual(CHUNK_METHOD_INPUTS.naive);
    for (const ext of ['pdf', 'docx', 'xlsx', 'csv', 'txt', 'py', 'md', 'html', 'json', 'jsonl']) {
      expect(methodAccepts('naive', ext)).toBe(true);
    }
    expect(methodAccepts('picture', '.PNG')).toBe(true);
    expect(methodAccepts('email', 'eml')).toBe(true);
    expect(methodAccepts('audio', 'mp3')).toBe(true);
    expect(methodAccepts('paper', 'docx')).toBe(false);
    expect(methodAccepts('unknown', 'pdf')).toBe(false);
    for (const m of CHUNK_METHODS) expect(CHUNK_METHOD_INPUTS[m].length).toBeGreaterThan(0);
  });
});

import { describe, expect, it } from 'vitest';
import { tokenFields } from './fields.js';
import { fineGrained, normalizeText, subTokens, tokenize } from './tokenizer.js';

describe('tokenizer', () => {
  it('lower-cases, drops stop words and Porter-stems English', () => {
    expect(tokenize('The Chunks are RUNNING quickly through the properties')).toEqual([
      'chunk',
      'run',
      'quickli',
      'properti',
    ]);
  });

  it('keeps numbers, decimals and alphanumerics, drops possessive s and HTML tags', () => {
    expect(tokenize("Women's IL-6 rose 3.5 fold in 2023 <td>cells</td> at v2")).toEqual([
      'women',
      'il',
      '6',
      'rose',
      '3.5',
      'fold',
      '2023',
      'cell',
      'v2',
    ]);
  });

  it('segments Chinese with the dictionary and drops Chinese stop words', () => {
    expect(tokenize('我们在北京大学研究机器学习')).toEqual(['北京大学', '研究', '机器', '学习']);
  });

  it('separates Latin and CJK runs in mixed text', () => {
    expect(tokenize('iPhone15发布会在2023年举行')).toEqual(['iphone15', '发布会', '2023', '年', '举行']);
  });

  it('folds full-width characters to half-width', () => {
    expect(normalizeText('ＡＢＣ１２３，Ｈｅｌｌｏ')).toBe('abc123,hello');
    expect(tokenize('ＣＨＵＮＫＳ　１２３')).toEqual(['chunk', '123']);
  });

  it('converts traditional to simplified Chinese before segmenting', () => {
    expect(normalizeText('機器學習與自然語言處理')).toBe('机器学习与自然语言处理');
    expect(tokenize('我們在北京大學研究機器學習')).toEqual(tokenize('我们在北京大学研究机器学习'));
  });

  it('removes Latin accents', () => {
    expect(tokenize('Café naïve')).toEqual(['cafe', 'naiv']);
  });

  it('drops question words only on the query side', () => {
    expect(tokenize('what is the chunk method', { question: true })).toEqual(['chunk', 'method']);
    expect(tokenize('what is the chunk method')).toEqual(['what', 'chunk', 'method']);
    expect(tokenize('什么是机器学习', { question: true })).toEqual(['机器', '学习']);
  });

  it('splits long CJK tokens into fine-grained sub-tokens', () => {
    expect(subTokens('中华人民共和国')).toEqual(['中华', '人民', '共和国']);
    expect(subTokens('学习')).toEqual([]);
    expect(fineGrained(tokenize('中华人民共和国成立了'))).toEqual(['中华', '人民', '共和国']);
    expect(fineGrained(['international'])).toEqual([]);
  });

  it('builds the index fields of a record', () => {
    const f = tokenFields({
      docnm_kwd: 'Annual Report.pdf',
      content_with_weight: 'Revenue grew strongly',
      important_kwd: ['Machine Learning', 'revenue'],
      question_kwd: ['How did revenue change?'],
    });
    expect(f.title_tks).toEqual(['annual', 'report']);
    expect(f.content_ltks).toEqual(['revenu', 'grew', 'strongli']);
    expect(f.important_kwd).toEqual(['machin_learn', 'revenu']);
    expect(f.important_tks).toEqual(['machin', 'learn', 'revenu']);
    expect(f.question_tks).toEqual(['how', 'revenu', 'chang']);
  });
});

import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { columnTexts } from './sqlite-schema.js';
import { tokenFields } from './fields.js';
import { CONTINUATION_RANGES, FOLDS, SEPARATOR_RANGES } from './fts-chars.js';
import { ftsTerms } from './fts-terms.js';

// The SQLite index's own FTS5 tokenizer (sqlite-schema.ts), asked directly through fts5vocab.
const db = new Database(':memory:');
db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize="unicode61 remove_diacritics 0 tokenchars '._'");
  CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');`);
afterAll(() => db.close());

/** Terms FTS5 indexes for each text, in order. */
function fts5Terms(texts: string[]): string[][] {
  db.exec('DELETE FROM t');
  const insert = db.prepare('INSERT INTO t(rowid, x) VALUES (?, ?)');
  db.transaction(() => texts.forEach((text, i) => insert.run(i + 1, text)))();
  const out = texts.map(() => [] as string[]);
  const rows = db.prepare('SELECT doc, term FROM v ORDER BY doc, offset').raw().all() as Array<
    [number, string]
  >;
  for (const [doc, term] of rows) out[doc - 1].push(term);
  return out;
}

function toRanges(cps: number[]): number[] {
  const out: number[] = [];
  for (const cp of cps) {
    if (out.length > 0 && out[out.length - 1] === cp - 1) out[out.length - 1] = cp;
    else out.push(cp, cp);
  }
  return out;
}

describe('FTS5-compatible terms', () => {
  it('classifies and folds every character a token can hold as FTS5 does (else prints a fresh table)', () => {
    const domain = /[\p{L}\p{N}\p{M}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
    const cps: number[] = [];
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (domain.test(String.fromCodePoint(cp))) cps.push(cp);
    }
    // Each character alone between spaces, and inside a word.
    const terms = fts5Terms(
      cps.flatMap((cp) => [`q ${String.fromCodePoint(cp)} q`, `x${String.fromCodePoint(cp)}y`]),
    );
    const separators: number[] = [];
    const continuations: number[] = [];
    const folds: Array<[number, string]> = [];
    cps.forEach((cp, i) => {
      const alone = terms[2 * i].length === 3;
      const inside = terms[2 * i + 1];
      if (inside.length !== 1) return void separators.push(cp);
      if (!alone) continuations.push(cp);
      const ch = String.fromCodePoint(cp);
      const folded = inside[0].slice(1, -1);
      if (folded !== ch && ch.toLowerCase() === ch) folds.push([cp, folded]);
    });
    const measured = {
      SEPARATOR_RANGES: toRanges(separators),
      CONTINUATION_RANGES: toRanges(continuations),
      FOLDS: folds,
    };
    const table = {
      SEPARATOR_RANGES: [...SEPARATOR_RANGES],
      CONTINUATION_RANGES: [...CONTINUATION_RANGES],
      FOLDS: FOLDS.map(([c, f]) => [c, f]),
    };
    expect(table, `fts-chars.ts is out of date; measured: ${JSON.stringify(measured)}`).toEqual(measured);
  });

  it('splits and folds tokenizer output of many scripts exactly as FTS5 does', () => {
    const texts = [
      'Revenue grew 3.5% in Q3; the C++ team shipped covid-19 fixes (v1.2_beta).',
      'हिन्दी भाषा में लिखा गया पाठ और उसका विश्लेषण',
      'نص عربي مع حركات: كَتَبَ الطَّالِبُ الدَّرْسَ',
      '人工智能正在改变世界，中华人民共和国成立于1949年。東京タワーとスカイツリー',
      'Ελληνικά κείμενα ΣΊΣΥΦΟΣ µm, straße, ǅemal, ﬁnance ＡＢＣ１２３',
      'ภาษาไทยมีวรรณยุกต์ ကမ္ဘာ ꯃꯤꯇꯩ ᬅᬓ᭄ᬱᬭ',
    ];
    for (const text of texts) {
      const fields = columnTexts(
        tokenFields({
          docnm_kwd: text,
          content_with_weight: text,
          important_kwd: [text],
          question_kwd: [text],
        }),
      );
      const expected = fts5Terms(fields);
      expect(fields.map((f) => ftsTerms(f))).toEqual(expected);
    }
  });
});

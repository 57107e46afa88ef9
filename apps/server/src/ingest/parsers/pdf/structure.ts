/**
 * Document-level structure: repeated page headers/footers and page numbers, body font size, titles and
 * their levels, code and list blocks, de-hyphenated paragraph text, and paragraphs continued across
 * columns or pages.
 */
import type { Position, Section } from '../../types.js';
import { BULLET_RE, type Block } from './layout.js';
import { CJK_RE, type Line, round2 } from './model.js';

export interface PageLines {
  page: number;
  width: number;
  height: number;
  lines: Line[];
}

const PAGE_NUMBER_RE =
  /^(?:page|p\.|pg\.?|第)?\s*[-–—]?\s*\d{1,5}\s*[-–—]?(?:\s*(?:of|\/|页|頁)\s*\d{1,5})?\s*(?:页|頁)?$/i;
const ROMAN_RE = /^[ivxlc]{1,7}$/i;

function marginKey(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

function inMargin(l: Line, p: PageLines): boolean {
  return (
    l.bottom < p.height * 0.12 || l.top > p.height * 0.88 || l.x1 < p.width * 0.08 || l.x0 > p.width * 0.92
  );
}

/** Lines to drop: page numbers and text repeated in the margins of many pages (running heads, footers). */
export function marginLines(pages: PageLines[]): Set<Line> {
  const drop = new Set<Line>();
  const pagesOf = new Map<string, Set<number>>();
  for (const p of pages) {
    // Page numbers are among the first or last two lines of the page.
    const byTop = [...p.lines].sort((a, b) => a.top - b.top);
    const edge = new Set([...byTop.slice(0, 2), ...byTop.slice(-2)]);
    for (const l of p.lines) {
      const t = l.text.trim();
      const nearEdge = l.bottom < p.height * 0.15 || l.top > p.height * 0.8;
      if (edge.has(l) && nearEdge && (PAGE_NUMBER_RE.test(t) || ROMAN_RE.test(t))) {
        drop.add(l);
        continue;
      }
      if (!inMargin(l, p) || PAGE_NUMBER_RE.test(t)) continue;
      const key = marginKey(t);
      if (key.length < 2) continue;
      let set = pagesOf.get(key);
      if (!set) pagesOf.set(key, (set = new Set()));
      set.add(p.page);
    }
  }
  // Repeated *content* (same text, or the same text numbered) on most pages, not position alone.
  const need = Math.max(2, Math.ceil(pages.length * 0.5));
  for (const p of pages) {
    const repeated = p.lines.filter(
      (l) => !drop.has(l) && inMargin(l, p) && (pagesOf.get(marginKey(l.text.trim()))?.size ?? 0) >= need,
    );
    // A running head or footer sits beside the page's own text: a page whose only text is the
    // "repeated" line (one line per page at one spot) keeps it — it is the content (issue 11 item 8).
    const keepsOtherText = p.lines.some(
      (l) => !drop.has(l) && !repeated.includes(l) && HAS_TEXT_RE.test(l.text),
    );
    if (keepsOtherText) for (const l of repeated) drop.add(l);
  }
  return drop;
}

const HAS_TEXT_RE = /[\p{L}\p{N}]/u;

/** The body text size: the size most characters are set in. */
export function bodySize(pages: PageLines[]): number {
  const weight = new Map<number, number>();
  for (const p of pages)
    for (const l of p.lines)
      weight.set(Math.round(l.size * 2) / 2, (weight.get(Math.round(l.size * 2) / 2) ?? 0) + l.text.length);
  let best = 10;
  let bestW = -1;
  for (const [s, w] of weight) if (w > bestW) [best, bestW] = [s, w];
  return best;
}

/** Joins two pieces of running text, undoing end-of-line hyphenation. */
export function joinText(a: string, b: string): string {
  if (!a) return b;
  if (!b) return a;
  if (a.endsWith('\u00ad')) return a.slice(0, -1) + b;
  // End-anchored patterns only look at the tail: paragraphs grow long and are joined line by line.
  const tail = a.slice(-64);
  const m = /(\S*)-$/.exec(tail);
  if (m && /[A-Za-z]-$/.test(tail)) {
    // "ef-" + "ficient" → "efficient"; compounds ("state-of-the-" + "art", "Lucene-" + "BM25") keep the hyphen.
    const stem = m[1];
    if (/^[a-z]/.test(b) && stem.length >= 2 && !stem.includes('-')) return a.slice(0, -1) + b;
    return a + b;
  }
  // Numbers and identifiers broken after a dash ("2018–" + "23–51", "737–" + "9") are one token.
  if (/\d[–-]$/.test(tail) && /^\d/.test(b)) return a + b;
  // Chinese and Japanese never put spaces between words; justified Korean breaks lines inside words.
  const cjkOrHangul = (ch: string): boolean => CJK_RE.test(ch) || HANGUL_RE.test(ch);
  if (cjkOrHangul(a.slice(-1)) && cjkOrHangul(b.charAt(0))) return a + b;
  return `${a} ${b}`;
}

const HANGUL_RE = /[\uac00-\ud7af]/;
const TITLE_END_RE = /[.;,]$/;
const HAS_LETTER_RE = /\p{L}/u;

export interface TitleInfo {
  isTitle: boolean;
  /** Size class used to rank levels (bold body-size titles rank below all larger sizes). */
  rank: number;
}

function blockText(b: Block): string {
  let text = '';
  for (const l of b.lines) text = joinText(text, l.text);
  return text;
}

function isCode(b: Block): boolean {
  return b.mono && (b.lines.length >= 2 || /[{}();=<>[\]]/.test(b.lines[0]?.text ?? ''));
}

function codeText(b: Block): string {
  const charW = 0.6 * b.size;
  return b.lines.map((l) => ' '.repeat(Math.max(0, Math.round((l.x0 - b.x0) / charW))) + l.text).join('\n');
}

function titleCandidate(b: Block, text: string, body: number): boolean {
  if (!HAS_LETTER_RE.test(text) || b.lines.length > 3 || text.length > 200 || b.mono) return false;
  if (STRONG_BULLET.test(text) || b.lines.some((l) => l.runs[0]?.rotated)) return false;
  const ratio = b.size / body;
  if (ratio >= 1.15) return text.length >= 2;
  // Slightly larger single short lines that do not end like a sentence ("1 Introduction" at 12 pt in 11 pt text).
  if (ratio >= 1.08 && b.lines.length === 1 && text.length <= 80 && !TITLE_END_RE.test(text)) return true;
  if (b.bold && ratio >= 0.9)
    return b.lines.length <= 2 && text.length <= 120 && !TITLE_END_RE.test(text) && text.length >= 2;
  return false;
}

const STRONG_BULLET = /^\s*[•●○◦▪▫■□‣⁃∙·]/;

export interface PageItems {
  page: number;
  /** Text blocks and ready sections (tables, figures) of the page in reading order. */
  items: Array<{ kind: 'block'; block: Block } | { kind: 'section'; section: Section }>;
}

function position(page: number, b: { x0: number; x1: number; top: number; bottom: number }): Position {
  return [page, round2(b.x0), round2(b.x1), round2(b.top), round2(b.bottom)];
}

const SENTENCE_END_RE = /[.!?:;。！？：；)\]"”’]$/;

/** Turns ordered page items into sections with titles, lists, code and continued paragraphs merged. */
export function toSections(pages: PageItems[], body: number): { sections: Section[]; title?: string } {
  // Title size classes, largest first.
  const titleSizes = new Set<number>();
  const meta = new Map<Block, { text: string; title: boolean }>();
  for (const p of pages) {
    for (const it of p.items) {
      if (it.kind !== 'block') continue;
      const text = blockText(it.block);
      const title = !isCode(it.block) && titleCandidate(it.block, text, body);
      meta.set(it.block, { text, title });
      if (title && it.block.size / body >= 1.08) titleSizes.add(Math.round(it.block.size));
    }
  }
  const ranked = [...titleSizes].sort((a, b) => b - a);
  const levelOf = (b: Block): number => {
    const r = ranked.indexOf(Math.round(b.size));
    return Math.min(6, (r >= 0 ? r : ranked.length) + 1);
  };
  const sections: Section[] = [];
  let docTitle: string | undefined;
  let docTitleSize = 0;
  let prevBlock: Block | undefined;
  for (const p of pages) {
    for (const it of p.items) {
      if (it.kind === 'section') {
        sections.push(it.section);
        prevBlock = undefined;
        continue;
      }
      const b = it.block;
      const { text, title } = meta.get(b)!;
      const pos = position(p.page, b);
      if (isCode(b)) {
        sections.push({ kind: 'code', text: codeText(b), positions: [pos] });
      } else if (title) {
        const level = levelOf(b);
        sections.push({ kind: 'title', text, level, positions: [pos] });
        if (p === pages[0] && b.size > docTitleSize && b.size / body >= 1.15 && text.length >= 4) {
          docTitle = text;
          docTitleSize = b.size;
        }
      } else if (BULLET_RE.test(text)) {
        const last = sections[sections.length - 1];
        // Consecutive items of one list (same page and indent) form one list section.
        if (
          last?.kind === 'list' &&
          prevBlock &&
          last.positions?.at(-1)?.[0] === p.page &&
          Math.abs(prevBlock.x0 - b.x0) < 2
        ) {
          last.text += `\n${text}`;
          last.positions!.push(pos);
        } else sections.push({ kind: 'list', text, positions: [pos] });
      } else {
        const last = sections[sections.length - 1];
        // A paragraph cut by a column or page break: no sentence end and a lower-case start, or a
        // word hyphenated across the break.
        const end = last?.text.slice(-4) ?? '';
        const broken = (!SENTENCE_END_RE.test(end) && /^[a-z]/.test(text)) || /[A-Za-z]-$/.test(end);
        const continued =
          last?.kind === 'text' &&
          prevBlock &&
          broken &&
          Math.abs(prevBlock.size - b.size) < 0.5 &&
          prevBlock.bold === b.bold;
        if (continued) {
          last.text = joinText(last.text, text);
          last.positions!.push(pos);
        } else sections.push({ kind: 'text', text, positions: [pos] });
      }
      prevBlock = b;
    }
  }
  return { sections, title: docTitle };
}

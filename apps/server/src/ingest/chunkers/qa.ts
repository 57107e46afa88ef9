/**
 * qa (API.md §19.7, §7): one chunk per question/answer pair, content
 * `Question: <q>\tAnswer: <a>` (Chinese `问题：<q>\t回答：<a>`), `search_text` = the question only.
 * Pairs come from spreadsheet rows (column 1 question, column 2 answer), CSV, tab-separated lines,
 * "Q:/A:" or "问：/答：" paragraphs, markdown headings (heading = question, text below = answer) or,
 * last, lines ending with a question mark.
 */
import type { ChunkContext, ChunkDraft, ParsedDocument, Position, Section } from '../types.js';
import { extensionOf, finalizeDrafts, isChinese, isPageFurniture, mergePositions } from './common.js';
import { cellText, excelHtmlSheets, parseCsv, rowsWithHeader, spreadsheetRows } from './rows.js';

interface Pair {
  q: string;
  a: string;
  positions: Position[];
}

interface Line {
  text: string;
  section: Section;
  /** Heading level when the line is a heading (parser title or markdown `#`). */
  heading?: number;
}

const HEADER_WORDS = /^(q|a|questions?|answers?|问|答|问题|答案|回答)$/i;
const Q_RE = /^\s*(?:Q|Question|问|问题)\s*[0-9]*\s*[:：]\s*/i;
const A_RE = /^\s*(?:A|Answer|答|答案|回答)\s*[0-9]*\s*[:：]\s*/i;

function linesOf(sections: Section[]): Line[] {
  const out: Line[] = [];
  let fence = false;
  for (const s of sections) {
    if (isPageFurniture(s) || s.kind === 'figure') continue;
    if (s.kind === 'title') {
      out.push({
        text: (s.text ?? '').replace(/\s+/g, ' ').trim(),
        section: s,
        heading: Math.max(1, s.level ?? 1),
      });
      continue;
    }
    for (const raw of (s.text ?? '').split(/\r\n|\r|\n/)) {
      if (/^\s*(```|~~~)/.test(raw)) fence = !fence;
      const md = fence ? null : /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(raw);
      out.push(md ? { text: md[2], section: s, heading: md[1].length } : { text: raw, section: s });
    }
  }
  return out;
}

class PairBuilder {
  readonly pairs: Pair[] = [];
  private q: string[] = [];
  private a: string[] = [];
  private sections: Section[] = [];

  start(q: string, s: Section): void {
    this.flush();
    this.q = [q];
    this.sections = [s];
  }
  question(line: string, s: Section): void {
    this.q.push(line);
    this.track(s);
  }
  answer(line: string, s: Section): void {
    this.a.push(line);
    this.track(s);
  }
  get open(): boolean {
    return this.q.length > 0;
  }
  get answerStarted(): boolean {
    return this.a.length > 0;
  }
  private track(s: Section): void {
    if (this.sections[this.sections.length - 1] !== s) this.sections.push(s);
  }
  flush(): void {
    const q = this.q.join('\n').trim();
    const a = this.a.join('\n').trim();
    if (q && a) this.pairs.push({ q, a, positions: mergePositions(this.sections.map((s) => s.positions)) });
    this.q = [];
    this.a = [];
    this.sections = [];
  }
}

function fromQaMarkers(lines: Line[]): Pair[] {
  const b = new PairBuilder();
  for (const { text, section } of lines) {
    if (Q_RE.test(text)) b.start(text.replace(Q_RE, ''), section);
    else if (A_RE.test(text) && b.open) b.answer(text.replace(A_RE, ''), section);
    else if (b.open && b.answerStarted) b.answer(text, section);
    else if (b.open) b.question(text, section);
  }
  b.flush();
  return b.pairs;
}

function fromTabs(lines: Line[]): Pair[] {
  const b = new PairBuilder();
  for (const { text, section } of lines) {
    const tab = text.indexOf('\t');
    if (tab >= 0) {
      b.start(text.slice(0, tab), section);
      b.answer(text.slice(tab + 1).replace(/\t/g, ' '), section);
    } else if (b.open && text.trim()) {
      b.answer(text, section);
    }
  }
  b.flush();
  return b.pairs;
}

/** The innermost heading when it is a question, else the heading path. */
function questionOf(stack: Array<{ level: number; text: string }>): string {
  const inner = stack[stack.length - 1].text;
  if (/[?？]$/.test(inner) || stack.length === 1) return inner;
  return stack.map((h) => h.text).join(' / ');
}

function fromHeadings(lines: Line[]): Pair[] {
  const b = new PairBuilder();
  const stack: Array<{ level: number; text: string }> = [];
  for (const line of lines) {
    if (line.heading !== undefined) {
      b.flush();
      while (stack.length && stack[stack.length - 1].level >= line.heading) stack.pop();
      stack.push({ level: line.heading, text: line.text });
      b.start(questionOf(stack), line.section);
    } else if (b.open) {
      b.answer(line.text, line.section);
    }
  }
  b.flush();
  return b.pairs;
}

function fromQuestionMarks(lines: Line[]): Pair[] {
  const b = new PairBuilder();
  for (const { text, section } of lines) {
    const t = text.trim();
    if (/[?？]$/.test(t) && t.length <= 300) b.start(t, section);
    else if (b.open && t) b.answer(text, section);
  }
  b.flush();
  return b.pairs;
}

function pairsFromRows(rows: unknown[][]): Pair[] {
  const pairs: Pair[] = [];
  for (const row of rows) {
    const cells = row.map(cellText).filter((c) => c !== '');
    if (cells.length >= 2) pairs.push({ q: cells[0], a: cells[1], positions: [] });
  }
  return pairs;
}

export function qaPairs(doc: ParsedDocument, ctx: ChunkContext): Pair[] {
  const rowSheets = spreadsheetRows(doc.sections);
  const sheets = rowSheets.length > 0 ? rowSheets : excelHtmlSheets(doc.sections);
  if (sheets.length > 0) return pairsFromRows(sheets.flatMap((s) => rowsWithHeader(s, HEADER_WORDS)));
  const lines = linesOf(doc.sections);
  const nonEmpty = lines.filter((l) => l.text.trim() !== '');
  if (extensionOf(ctx.docName) === 'csv' && !nonEmpty.some((l) => l.text.includes('\t'))) {
    return pairsFromRows(parseCsv(nonEmpty.map((l) => l.text).join('\n')));
  }
  if (nonEmpty.some((l) => Q_RE.test(l.text)) && nonEmpty.some((l) => A_RE.test(l.text)))
    return fromQaMarkers(nonEmpty);
  const tabbed = nonEmpty.filter((l) => l.text.includes('\t')).length;
  if (tabbed > 0 && tabbed >= 0.3 * nonEmpty.length) return fromTabs(nonEmpty);
  if (nonEmpty.some((l) => l.heading !== undefined)) return fromHeadings(nonEmpty);
  return fromQuestionMarks(nonEmpty);
}

export function chunkQa(doc: ParsedDocument, ctx: ChunkContext): ChunkDraft[] {
  const zh = isChinese(ctx);
  const drafts = qaPairs(doc, ctx).map((p) => ({
    content_with_weight: zh ? `问题：${p.q}\t回答：${p.a}` : `Question: ${p.q}\tAnswer: ${p.a}`,
    positions: p.positions,
    search_text: p.q,
  }));
  return finalizeDrafts(drafts);
}

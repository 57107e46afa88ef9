/**
 * Heading/bullet numbering styles (book, laws, manual, paper): a style is an ordered list of patterns,
 * one per outline level; the style of a document is the one matching most of a deterministic sample
 * of its lines.
 */
import type { Section } from '../types.js';

const CN = '[零一二三四五六七八九十百千两〇]+';
const CN_OR_NUM = '[零一二三四五六七八九十百千两〇0-9０-９]+';

export interface BulletStyle {
  name: string;
  /** One pattern per level, outermost first (anchored at the line start). */
  patterns: RegExp[];
  /** Levels (0-based) that number clauses inside an article rather than headings (laws keep them as body). */
  clauseLevels: number[];
}

export const BULLET_STYLES: BulletStyle[] = [
  {
    name: 'chinese',
    patterns: [
      new RegExp(`^第${CN_OR_NUM}(分?编|部分)`),
      new RegExp(`^第${CN_OR_NUM}章`),
      new RegExp(`^第${CN_OR_NUM}节`),
      new RegExp(`^第${CN_OR_NUM}条`),
      new RegExp(`^[(（]${CN}[)）]`),
    ],
    clauseLevels: [4],
  },
  {
    name: 'decimal',
    patterns: [
      /^第[0-9]+章/,
      /^第[0-9]+节/,
      /^[0-9]{1,2}(?:[.、．](?![0-9])|\s)\s*\S/,
      /^[0-9]{1,2}\.[0-9]{1,2}(?![.0-9])(?![a-zA-Z/%~-])/,
      /^[0-9]{1,2}\.[0-9]{1,2}\.[0-9]{1,2}(?![.0-9])/,
      /^[0-9]{1,2}\.[0-9]{1,2}\.[0-9]{1,2}\.[0-9]{1,2}(?![.0-9])/,
    ],
    clauseLevels: [],
  },
  {
    name: 'chinese-mixed',
    patterns: [
      new RegExp(`^第${CN_OR_NUM}章`),
      new RegExp(`^第${CN_OR_NUM}节`),
      new RegExp(`^${CN}[ 、]`),
      new RegExp(`^[(（]${CN}[)）]`),
      /^[(（][0-9]{1,2}[)）]/,
    ],
    clauseLevels: [3, 4],
  },
  {
    name: 'english',
    patterns: [
      /^PART\s+(?:[IVXLC]+|[0-9]+|ONE|TWO|THREE|FOUR|FIVE|SIX|SEVEN|EIGHT|NINE|TEN)\b/i,
      /^CHAPTER\s+(?:[IVXLC]+|[0-9]+)\b/i,
      /^(?:SECTION|§)\s*[0-9]+\b/i,
      /^(?:ARTICLE|ART\.)\s*[0-9IVXLC]+\b/i,
      /^\((?:[0-9]{1,2}|[a-z])\)\s/,
    ],
    clauseLevels: [4],
  },
  {
    name: 'markdown',
    patterns: [/^#\s/, /^##\s/, /^###\s/, /^####\s/, /^#####\s/, /^######\s/],
    clauseLevels: [],
  },
];

/** Lines that look numbered but are not bullets: "0", "3 5", table-of-contents dots, "1.2.3的". */
export function notBullet(line: string): boolean {
  return /^0(?![0-9])|^[0-9]+ +[0-9~个只-]|^[0-9]+\.{2,}|^[0-9]+(\.[0-9]+){2,}[的中]/.test(line);
}

/** Long or sentence-like lines are not titles even when a parser labels them so. */
export function notTitle(text: string): boolean {
  if (new RegExp(`^第${CN_OR_NUM}条`).test(text)) return false;
  if (text.split(/\s+/).length > 12 || (!text.includes(' ') && text.length >= 32)) return true;
  return /[,;，。；！!]/.test(text);
}

function firstLine(text: string): string {
  const t = (text ?? '').replace(/\u3000/g, ' ').trim();
  const nl = t.indexOf('\n');
  return nl < 0 ? t : t.slice(0, nl).trim();
}

/** Evenly spaced sample (deterministic) of at most `max` non-empty first lines. */
export function sampleLines(sections: Section[], max = 200): string[] {
  const lines = sections.map((s) => firstLine(s.text)).filter((l) => l !== '');
  if (lines.length <= max) return lines;
  const step = lines.length / max;
  const out: string[] = [];
  for (let i = 0; i < max; i++) out.push(lines[Math.floor(i * step)]);
  return out;
}

/** Index into BULLET_STYLES of the style most lines follow, or −1 when no line is numbered. */
export function detectBulletStyle(lines: string[]): number {
  let best = -1;
  let bestHits = 0;
  BULLET_STYLES.forEach((style, i) => {
    let hits = 0;
    for (const line of lines) {
      if (notBullet(line)) continue;
      if (style.patterns.some((p) => p.test(line))) hits++;
    }
    if (hits > bestHits) {
      best = i;
      bestHits = hits;
    }
  });
  return best;
}

/** 0-based level of the first pattern of `style` the line matches, or −1. */
export function bulletLevel(style: number, text: string): number {
  if (style < 0) return -1;
  const line = firstLine(text);
  if (!line || notBullet(line)) return -1;
  const patterns = BULLET_STYLES[style].patterns;
  for (let j = 0; j < patterns.length; j++) if (patterns[j].test(line)) return j;
  return -1;
}

export const BODY = Number.POSITIVE_INFINITY;

/**
 * Outline level of every section (smaller = outer): numbered lines take their pattern's level
 * (1…P); parser-labelled titles that are not numbered come after the numbered levels (P + their own
 * heading level); everything else is BODY. With `titlesFirst`, a document whose parser gave heading
 * levels is outlined by those levels alone.
 */
export function outlineLevels(
  sections: Section[],
  style: number,
  opts: { clausesAsBody?: boolean; titlesFirst?: boolean } = {},
): number[] {
  // Parser heading levels (docx styles, markdown, PDF outline) define the hierarchy when asked to.
  if (opts.titlesFirst && sections.some((s) => s.kind === 'title' && s.level)) {
    return sections.map((s) =>
      s.kind === 'title' && !notTitle(firstLine(s.text)) ? Math.max(1, s.level ?? 1) : BODY,
    );
  }
  const size = style >= 0 ? BULLET_STYLES[style].patterns.length : 0;
  const clauses = new Set(style >= 0 && opts.clausesAsBody ? BULLET_STYLES[style].clauseLevels : []);
  return sections.map((s) => {
    if (s.kind === 'table' || s.kind === 'figure') return BODY;
    const j = bulletLevel(style, s.text);
    if (j >= 0) return clauses.has(j) ? BODY : j + 1;
    if (s.kind === 'title' && !notTitle(firstLine(s.text))) return size + Math.max(1, s.level ?? 1);
    return BODY;
  });
}

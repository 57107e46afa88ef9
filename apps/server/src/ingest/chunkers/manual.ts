/**
 * manual (API.md §19.7): heading levels come from the parser (title levels from the PDF outline or
 * docx styles), from font statistics (blocks set in a larger font than the body), or from numbering;
 * content is grouped under the most frequent heading level, one group per section, and merged up to
 * the token limit (tiny pieces under 32 tokens always join their neighbour).
 */
import type { ChunkContext, ChunkDraft, ParsedDocument, Position, Section } from '../types.js';
import {
  configCount,
  configNumber,
  finalizeDrafts,
  isMedia,
  isPageFurniture,
  mergePositions,
} from './common.js';
import { mediaDraft } from './media.js';
import { unitsOfText, type Unit } from './merge.js';
import { BODY, bulletLevel, detectBulletStyle, notTitle } from './numbering.js';

export const MANUAL_MIN_TOKENS = 32;

function firstLine(text: string): string {
  return (
    (text ?? '')
      .trim()
      .split(/\r\n|\r|\n/)[0]
      ?.trim() ?? ''
  );
}

/** Body font = the size carrying most text; larger short blocks are headings ranked by size. */
function fontLevels(sections: Section[]): Map<number, number> | undefined {
  const weight = new Map<number, number>();
  for (const s of sections) {
    if (s.fontSize && !isMedia(s))
      weight.set(s.fontSize, (weight.get(s.fontSize) ?? 0) + (s.text ?? '').length);
  }
  if (weight.size < 2) return undefined;
  let body = 0;
  let most = -1;
  for (const [size, w] of [...weight].sort((a, b) => a[0] - b[0])) {
    if (w > most) {
      most = w;
      body = size;
    }
  }
  const larger = [...weight.keys()].filter((size) => size > body * 1.1).sort((a, b) => b - a);
  if (larger.length === 0) return undefined;
  return new Map(larger.map((size, i) => [size, i + 1]));
}

/** Heading level per section (BODY for text). */
export function manualLevels(sections: Section[]): number[] {
  const fonts = fontLevels(sections);
  const titleLines = sections.filter((s) => s.kind === 'title').map((s) => firstLine(s.text));
  const shortLines = sections
    .filter((s) => !isMedia(s) && !notTitle(firstLine(s.text)))
    .map((s) => firstLine(s.text));
  const style = detectBulletStyle(titleLines.length ? titleLines : shortLines);
  return sections.map((s) => {
    if (isMedia(s)) return BODY;
    const line = firstLine(s.text);
    if (s.kind === 'title') {
      if (s.level) return s.level;
      if (fonts && s.fontSize && fonts.has(s.fontSize)) return fonts.get(s.fontSize) as number;
      const b = bulletLevel(style, line);
      return b >= 0 ? b + 1 : 1;
    }
    if (notTitle(line) || line.length === 0) return BODY;
    if (fonts && s.fontSize && fonts.has(s.fontSize)) return fonts.get(s.fontSize) as number;
    if (titleLines.length === 0 && !fonts) {
      const b = bulletLevel(style, line);
      if (b >= 0 && !(s.text ?? '').trim().includes('\n')) return b + 1;
    }
    return BODY;
  });
}

/** The heading level used most often (the smaller level wins a tie); undefined without headings. */
export function mostFrequentLevel(levels: number[]): number | undefined {
  const counts = new Map<number, number>();
  for (const l of levels) if (l !== BODY) counts.set(l, (counts.get(l) ?? 0) + 1);
  let best: number | undefined;
  for (const [level, n] of [...counts].sort((a, b) => a[0] - b[0])) {
    if (best === undefined || n > (counts.get(best) ?? 0)) best = level;
  }
  return best;
}

/** Section ids: a new id starts at each heading at or above `most` (stacked headings share one). */
export function sectionIds(levels: number[], most: number | undefined): number[] {
  const ids: number[] = [];
  let id = 0;
  let previousWasHeading = false;
  levels.forEach((level, i) => {
    const starts = most !== undefined && level !== BODY && level <= most;
    if (starts && i > 0 && !previousWasHeading) id++;
    previousWasHeading = starts;
    ids.push(id);
  });
  return ids;
}

interface Open {
  parts: string[];
  tokens: number;
  positions: Position[];
  sid: number;
  first: number;
}

export function chunkManual(doc: ParsedDocument, ctx: ChunkContext): ChunkDraft[] {
  const sections = doc.sections.filter((s) => !isPageFurniture(s));
  const budget = configNumber(ctx, 'chunk_token_num', 512);
  const levels = manualLevels(sections);
  const ids = sectionIds(levels, mostFrequentLevel(levels));
  const out: Array<{ first: number; draft: ChunkDraft }> = [];
  let open: Open | undefined;
  const close = () => {
    if (open)
      out.push({
        first: open.first,
        draft: { content_with_weight: open.parts.join(''), positions: open.positions },
      });
    open = undefined;
  };
  const chars = new Set(['\n', '。', '；', '！', '？', '!', '?', ';']);
  sections.forEach((s, i) => {
    if (isMedia(s)) {
      out.push({
        first: i,
        draft: mediaDraft(
          sections,
          i,
          configCount(ctx, 'table_context_size'),
          configCount(ctx, 'image_context_size'),
        ),
      });
      return;
    }
    if (!(s.text ?? '').trim()) return;
    const units: Unit[] = unitsOfText(s.text, s.positions ?? [], i, budget, chars);
    for (const u of units) {
      const fits =
        open &&
        (open.tokens < MANUAL_MIN_TOKENS || (open.sid === ids[i] && open.tokens + u.tokens <= budget));
      if (open && fits) {
        open.parts.push(u.sep, u.text);
        open.tokens += u.tokens;
        open.sid = ids[i];
        open.positions = mergePositions([open.positions, u.positions]);
      } else {
        close();
        open = { parts: [u.text], tokens: u.tokens, positions: [...u.positions], sid: ids[i], first: i };
      }
    }
  });
  close();
  out.sort((a, b) => a.first - b.first);
  return finalizeDrafts(out.map((o) => o.draft));
}

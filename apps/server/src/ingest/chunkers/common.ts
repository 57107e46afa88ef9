/** Small helpers shared by every chunk method. */
import type { ChunkDraft, ChunkContext, Position, Section } from '../types.js';

/** Reads a positive number from the config, falling back when absent or unusable. */
export function configNumber(ctx: ChunkContext, key: string, fallback: number): number {
  const v = ctx.config[key];
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : fallback;
}

/** Reads a non-negative number (0 allowed). */
export function configCount(ctx: ChunkContext, key: string): number {
  const v = ctx.config[key];
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

export function isChinese(ctx: ChunkContext): boolean {
  return /^(chinese|zh)/i.test(ctx.language ?? '');
}

/** Lower-case extension of the document name, without the dot. */
export function extensionOf(name: string): string {
  const m = /\.([^./\\]+)$/.exec(name);
  return m ? m[1].toLowerCase() : '';
}

/** Page headers and footers repeat on every page: noise for retrieval. */
export function isPageFurniture(section: Section): boolean {
  return section.kind === 'header' || section.kind === 'footer';
}

export function isMedia(section: Section): boolean {
  return section.kind === 'table' || section.kind === 'figure';
}

/** Text of a section as stored in a chunk: tables keep their HTML. */
export function sectionContent(section: Section): string {
  if (section.kind === 'table' && section.html) return section.html;
  return section.text ?? '';
}

/** Concatenates position lists, dropping exact duplicates and malformed entries, keeping order. */
export function mergePositions(lists: Array<Position[] | undefined>): Position[] {
  const out: Position[] = [];
  const seen = new Set<string>();
  for (const list of lists) {
    if (!list) continue;
    for (const p of list) {
      if (!Array.isArray(p) || p.length !== 5 || p.some((n) => typeof n !== 'number' || !Number.isFinite(n)))
        continue;
      const key = p.join(',');
      if (seen.has(key)) continue;
      seen.add(key);
      out.push([p[0], p[1], p[2], p[3], p[4]]);
    }
  }
  return out;
}

/** First image among the sections, if any. */
export function firstImage(sections: Section[]): Buffer | undefined {
  for (const s of sections) if (s.image && s.image.length > 0) return s.image;
  return undefined;
}

/**
 * The final gate every method passes its drafts through: trims content, drops empty chunks,
 * and normalises positions so every chunk has a well-formed list.
 */
export function finalizeDrafts(drafts: ChunkDraft[]): ChunkDraft[] {
  const out: ChunkDraft[] = [];
  for (const d of drafts) {
    const content = (d.content_with_weight ?? '').trim();
    if (!content) continue;
    const draft: ChunkDraft = {
      ...d,
      content_with_weight: content,
      positions: mergePositions([d.positions]),
    };
    if (draft.search_text !== undefined) draft.search_text = draft.search_text.trim();
    out.push(draft);
  }
  return out;
}

/** Splits every section's text into lines (tables contribute their plain text rendering). */
export function sectionLines(sections: Section[]): Array<{ line: string; section: Section }> {
  const out: Array<{ line: string; section: Section }> = [];
  for (const s of sections) {
    if (isPageFurniture(s)) continue;
    for (const line of (s.text ?? '').split(/\r\n|\r|\n/)) out.push({ line, section: s });
  }
  return out;
}

/**
 * Text/list sections holding several lines become one section per non-empty line (same kind and
 * positions), so numbering detection sees every line even when a parser returns whole paragraphs or
 * a whole text file as one section.
 */
export function explodeLines(sections: Section[]): Section[] {
  const out: Section[] = [];
  for (const s of sections) {
    if ((s.kind !== 'text' && s.kind !== 'list') || !(s.text ?? '').includes('\n')) {
      out.push(s);
      continue;
    }
    for (const line of s.text.split(/\r\n|\r|\n/)) {
      if (line.trim() === '') continue;
      out.push({ ...s, text: line });
    }
  }
  return out;
}

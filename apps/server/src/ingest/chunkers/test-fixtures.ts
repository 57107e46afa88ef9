/** Builders for chunker tests: Section lists made by hand (chunkers never see bytes). */
import type { ChunkContext, ParsedDocument, ParserConfig, Position, Section } from '../types.js';

export function text(t: string, positions?: Position[]): Section {
  return positions ? { kind: 'text', text: t, positions } : { kind: 'text', text: t };
}

export function title(t: string, level?: number, extra: Partial<Section> = {}): Section {
  return { kind: 'title', text: t, ...(level !== undefined ? { level } : {}), ...extra };
}

export function table(html: string, t = '', positions?: Position[]): Section {
  return { kind: 'table', text: t, html, ...(positions ? { positions } : {}) };
}

export function figure(t: string, image = Buffer.from('png-bytes'), positions?: Position[]): Section {
  return { kind: 'figure', text: t, image, ...(positions ? { positions } : {}) };
}

/** One spreadsheet data row the way parsers/spreadsheet.ts emits it (RowFields). */
export function row(sheet: string, headers: string[], cells: unknown[], line?: string): Section {
  const t = line ?? headers.map((h, i) => `${h}：${String(cells[i] ?? '')}`).join('; ');
  return { kind: 'text', text: t, fields: { sheet, row: 0, headers, cells } };
}

export function doc(sections: Section[], extra: Partial<ParsedDocument> = {}): ParsedDocument {
  return { sections, ...extra };
}

export function ctx(config: ParserConfig = {}, docName = 'doc.txt', language = 'English'): ChunkContext {
  return { docName, language, config };
}

export function contents(chunks: Array<{ content_with_weight: string }>): string[] {
  return chunks.map((c) => c.content_with_weight);
}

/**
 * tag (API.md §19.7): rows "content<TAB>tags" (spreadsheets/CSV: column 1 content, column 2 tags);
 * tags separated by commas; one chunk per row with `tag_kwd`. A text line without a tab continues the
 * previous row's content.
 */
import type { ChunkContext, ChunkDraft, ParsedDocument, Position } from '../types.js';
import { extensionOf, finalizeDrafts, isPageFurniture, mergePositions } from './common.js';
import { cellText, excelHtmlSheets, parseCsv, rowsWithHeader, spreadsheetRows } from './rows.js';

const HEADER_WORDS = /^(content|contents|text|tags?|labels?|内容|文本|标签)$/i;

export function splitTags(text: string): string[] {
  const out: string[] = [];
  for (const t of text.split(/[,，;；]/)) {
    const tag = t.trim();
    if (tag && !out.includes(tag)) out.push(tag);
  }
  return out;
}

interface Pending {
  content: string;
  tags: string[];
  positions: Position[];
}

export function chunkTag(doc: ParsedDocument, ctx: ChunkContext): ChunkDraft[] {
  const pairs: Pending[] = [];
  const rowSheets = spreadsheetRows(doc.sections);
  const sheets = rowSheets.length > 0 ? rowSheets : excelHtmlSheets(doc.sections);
  if (sheets.length > 0) {
    for (const sheet of sheets) {
      for (const row of rowsWithHeader(sheet, HEADER_WORDS)) {
        pairs.push({ content: cellText(row[0]), tags: splitTags(cellText(row[1])), positions: [] });
      }
    }
  } else {
    const sections = doc.sections.filter((s) => !isPageFurniture(s) && s.kind !== 'figure');
    const text = sections.map((s) => s.text ?? '').join('\n');
    if (extensionOf(ctx.docName) === 'csv' && !text.includes('\t')) {
      for (const row of parseCsv(text))
        pairs.push({ content: row[0] ?? '', tags: splitTags(row[1] ?? ''), positions: [] });
    } else {
      for (const s of sections) {
        for (const line of (s.text ?? '').split(/\r\n|\r|\n/)) {
          const tab = line.lastIndexOf('\t');
          if (tab >= 0) {
            pairs.push({
              content: line.slice(0, tab),
              tags: splitTags(line.slice(tab + 1)),
              positions: s.positions ?? [],
            });
          } else if (pairs.length > 0 && line.trim()) {
            const last = pairs[pairs.length - 1];
            last.content += `\n${line}`;
            last.positions = mergePositions([last.positions, s.positions]);
          }
        }
      }
    }
  }
  const drafts = pairs
    .filter((p) => p.content.trim() && p.tags.length > 0)
    .map((p) => ({ content_with_weight: p.content, positions: p.positions, tag_kwd: p.tags }));
  return finalizeDrafts(drafts);
}

/**
 * naive / General (API.md §19.7): ordered sections merged by token budget with overlap; back-quoted
 * custom delimiters cut at every occurrence instead; tables and figures are chunks of their own.
 * Spreadsheets (parsers/spreadsheet.ts) arrive as one text section per data row (`header：value; …`),
 * merged by token count like any text, or with html4excel as 12-row HTML tables, one chunk each.
 */
import type { ChunkContext, ChunkDraft, ParsedDocument, Section } from '../types.js';
import { DEFAULT_DELIMITER } from '../parser-config.js';
import {
  configCount,
  configNumber,
  finalizeDrafts,
  isMedia,
  isPageFurniture,
  mergePositions,
} from './common.js';
import { parseDelimiter, rangesBetweenTokens } from './delimiter.js';
import { mediaDraft } from './media.js';
import { mergeUnits, unitsOfText, type Unit } from './merge.js';
import { isExcelHtml } from './rows.js';

export interface NaiveOptions {
  /** chunk_token_num when the config has none. */
  defaultTokens?: number;
  /** Keep page header/footer sections (email headers use the `header` kind). */
  keepFurniture?: boolean;
}

interface Ordered {
  first: number;
  draft: ChunkDraft;
}

function delimiterOf(ctx: ChunkContext): string {
  return typeof ctx.config.delimiter === 'string' ? ctx.config.delimiter : DEFAULT_DELIMITER;
}

/** Custom-delimiter mode: consecutive text sections form one stream cut at every token occurrence. */
function customPieces(sections: Section[], indices: number[], tokens: string[]): Ordered[] {
  const starts: number[] = [];
  let joined = '';
  for (const i of indices) {
    if (joined) joined += '\n';
    starts.push(joined.length);
    joined += sections[i].text ?? '';
  }
  const out: Ordered[] = [];
  let k = 0;
  for (const [from, to] of rangesBetweenTokens(joined, tokens)) {
    const text = joined.slice(from, to).trim();
    if (!text) continue;
    while (k + 1 < starts.length && starts[k + 1] <= from) k++;
    const lists = [];
    let firstIndex = -1;
    for (let m = k; m < starts.length && starts[m] < to; m++) {
      const end = starts[m] + (sections[indices[m]].text ?? '').length;
      if (end <= from) continue;
      // Only sections whose visible text falls inside the piece contribute positions.
      const overlapText = joined.slice(Math.max(from, starts[m]), Math.min(to, end));
      if (!overlapText.trim()) continue;
      if (firstIndex < 0) firstIndex = indices[m];
      lists.push(sections[indices[m]].positions);
    }
    out.push({
      first: firstIndex < 0 ? indices[k] : firstIndex,
      draft: { content_with_weight: text, positions: mergePositions(lists) },
    });
  }
  return out;
}

/** html4excel: one chunk per 12-row HTML table, without surrounding context. */
function excelHtmlDraft(s: Section): ChunkDraft {
  return { content_with_weight: s.html ?? '', positions: s.positions ?? [], doc_type_kwd: 'table' };
}

export function chunkNaive(doc: ParsedDocument, ctx: ChunkContext, opts: NaiveOptions = {}): ChunkDraft[] {
  const sections = opts.keepFurniture ? doc.sections : doc.sections.filter((s) => !isPageFurniture(s));
  const budget = configNumber(ctx, 'chunk_token_num', opts.defaultTokens ?? 512);
  const overlap = Math.min(99, configCount(ctx, 'overlapped_percent'));
  const tableContext = configCount(ctx, 'table_context_size');
  const imageContext = configCount(ctx, 'image_context_size');
  const { chars, tokens } = parseDelimiter(delimiterOf(ctx));
  const ordered: Ordered[] = [];

  if (tokens.length > 0) {
    let run: number[] = [];
    const flush = () => {
      if (run.length) ordered.push(...customPieces(sections, run, tokens));
      run = [];
    };
    sections.forEach((s, i) => {
      if (isExcelHtml(s)) {
        flush();
        ordered.push({ first: i, draft: excelHtmlDraft(s) });
      } else if (isMedia(s)) {
        flush();
        ordered.push({ first: i, draft: mediaDraft(sections, i, tableContext, imageContext) });
      } else {
        run.push(i);
      }
    });
    flush();
  } else {
    const units: Unit[] = [];
    sections.forEach((s, i) => {
      if (isExcelHtml(s)) {
        ordered.push({ first: i, draft: excelHtmlDraft(s) });
        return;
      }
      if (isMedia(s)) {
        ordered.push({ first: i, draft: mediaDraft(sections, i, tableContext, imageContext) });
        return;
      }
      const text = s.text ?? '';
      if (!text.trim()) return;
      units.push(...unitsOfText(text, s.positions ?? [], i, budget, chars));
    });
    for (const m of mergeUnits(units, { chunkTokenNum: budget, overlappedPercent: overlap })) {
      ordered.push({ first: m.first, draft: { content_with_weight: m.text, positions: m.positions } });
    }
  }
  // Stable sort: chunks in document order of their first section.
  ordered.sort((a, b) => a.first - b.first);
  return finalizeDrafts(ordered.map((o) => o.draft));
}

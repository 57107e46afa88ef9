/**
 * The contract between format parsers, chunk methods and the ingestion pipeline.
 * Parsers turn bytes into ordered sections; chunkers turn sections into chunk drafts;
 * the pipeline enriches, embeds and indexes the drafts.
 */

import type { Position } from '../chunk-index/chunk-index.js';
import type { PdfOpener } from './parsers/pdf/open-cache.js';

export type { Position };

export type SectionKind =
  'title' | 'text' | 'list' | 'table' | 'figure' | 'code' | 'formula' | 'header' | 'footer';

export interface Section {
  kind: SectionKind;
  /** Plain text (tables: a readable text rendering; figures: caption/OCR text). */
  text: string;
  /** Tables as HTML `<table>…</table>`. */
  html?: string;
  /** Heading level for titles (1 = top). */
  level?: number;
  /** Where the section sits on PDF pages (empty for non-PDF formats). */
  positions?: Position[];
  /** A picture belonging to the section (figure crops, slide images, images of picture docs). */
  image?: Buffer;
  /** Extra typed fields (e.g. QA pairs, spreadsheet rows, resume fields). */
  fields?: Record<string, unknown>;
  /**
   * 1-based page or slide number when `positions` are absent (slides of pptx, pages of a paged format
   * parsed without coordinates). The presentation method groups sections by page.
   */
  page?: number;
  /** Font size in points of a PDF text block (lets chunkers rank headings by font statistics). */
  fontSize?: number;
}

/**
 * Conventional `Section.fields` of one spreadsheet/CSV data row (xlsx, xls, csv and tab-separated txt):
 * the naive method reads only the section text (`header：value; header：value ——<sheet>`), while the
 * qa, table and tag methods read the cells. `headers` is the sheet's first row (same length as `cells`).
 */
export interface RowFields {
  /** Sheet name ("" or absent for CSV / a single unnamed sheet). */
  sheet?: string;
  /** 0-based index of the data row within its sheet (header row excluded). */
  row?: number;
  headers?: string[];
  /** Cell values: strings, numbers, booleans or Dates as the workbook holds them; null for empty cells. */
  cells: unknown[];
}

export interface ParsedDocument {
  sections: Section[];
  /** Total pages for paged formats (PDF, slides); undefined otherwise. */
  pageCount?: number;
  title?: string;
  /** Non-fatal remarks for the progress log (e.g. "OCR used on 3 pages"). */
  notes?: string[];
  /** Spreadsheets: data rows across all sheets, before fromPage/toPage (the row range) was applied. */
  rowCount?: number;
  /** Extra document-level results, e.g. `attachments` of an e-mail ([{filename, ext, content: Buffer}]). */
  fields?: Record<string, unknown>;
}

export interface ParseOptions {
  /** Lower-case extension without the dot. */
  ext: string;
  fileName: string;
  /** 0-based inclusive start page and exclusive end page (PDF, slides); rows for spreadsheets. */
  fromPage?: number;
  toPage?: number;
  /** "DeepDOC" (our layout analysis), "Plain Text", or a vision-model id. */
  layoutRecognize?: string;
  /** Spreadsheets: HTML tables of 12 rows instead of row lines. */
  html4excel?: boolean;
  /** "English" or "Chinese": drives OCR languages and a few heuristics. */
  language?: string;
  /** Reports progress (0..1 within this parse) and a message; throws when the task was cancelled. */
  onProgress?: (fraction: number, message: string) => void | Promise<void>;
  /** PDF: lends a document a parse worker already opened for another task of the same file. */
  pdfOpener?: PdfOpener;
}

export interface ChunkDraft {
  /** Raw text or HTML stored with the chunk (what people read and edit). */
  content_with_weight: string;
  positions: Position[];
  /** "table", "image", … or undefined for text. */
  doc_type_kwd?: string;
  important_kwd?: string[];
  question_kwd?: string[];
  tag_kwd?: string[];
  /** Tag → weight from the KB's tag sets (auto-tagging, API.md §19.7 `tag`). */
  tag_feas?: Record<string, number>;
  /** Picture stored as the chunk image. */
  image?: Buffer;
  /** Text to embed and search when it differs from content (qa: the question only). */
  search_text?: string;
  /** Extra typed fields (table method columns `<col>_<type>`, resume fields…). */
  fields?: Record<string, unknown>;
}

/** parser_config as stored on a knowledge base or document (API.md §19.6). */
export interface ParserConfig {
  chunk_token_num?: number;
  delimiter?: string;
  layout_recognize?: string;
  html4excel?: boolean;
  auto_keywords?: number;
  auto_questions?: number;
  task_page_size?: number;
  pages?: Array<[number, number]>;
  overlapped_percent?: number;
  table_context_size?: number;
  image_context_size?: number;
  topn_tags?: number;
  tag_kb_ids?: string[];
  filename_embd_weight?: number;
  [key: string]: unknown;
}

export interface ChunkContext {
  docName: string;
  /** "English" or "Chinese". */
  language: string;
  config: ParserConfig;
}

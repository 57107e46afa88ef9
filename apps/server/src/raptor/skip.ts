/**
 * RAPTOR is skipped for structured data (API.md §19.11): summarizing clusters of table rows or tag rows
 * produces prose about nothing and pollutes retrieval. The job logs `Raptor skipped: <reason>` for
 * each such document (or for the knowledge base when every document is skipped).
 */

const SPREADSHEET_SUFFIXES = new Set(['xls', 'xlsx', 'xlsm', 'xlsb', 'csv', 'tsv', 'ods', 'numbers']);

export interface RaptorSkipInput {
  /** The document's chunk method. */
  parserId: string;
  /** The document's file extension, lower case, without the dot. */
  suffix?: string;
  parserConfig?: { html4excel?: boolean; raptor?: { auto_disable_for_structured_data?: boolean } };
}

/** Why RAPTOR should skip this document, or null to include it. */
export function raptorSkipReason(doc: RaptorSkipInput): string | null {
  if (doc.parserConfig?.raptor?.auto_disable_for_structured_data === false) return null;
  if (doc.parserId === 'table') return 'structured data (Table chunk method)';
  if (doc.parserId === 'tag') return 'structured data (Tag chunk method)';
  const suffix = (doc.suffix ?? '').toLowerCase().replace(/^\./, '');
  if (SPREADSHEET_SUFFIXES.has(suffix)) return `structured data (.${suffix} spreadsheet)`;
  if (doc.parserConfig?.html4excel) return 'structured data (spreadsheet rendered as HTML tables)';
  return null;
}

export function raptorSkipMessage(reason: string): string {
  return `Raptor skipped: ${reason}`;
}

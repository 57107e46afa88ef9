/**
 * RAPTOR is skipped for structured data (API.md §19.11): summarizing clusters of table rows or tag rows
 * produces prose about nothing and pollutes retrieval. The job logs `Raptor skipped: <reason>` for
 * each such document (or for the knowledge base when every document is skipped).
 */
import { progressMessage } from '@lectern/shared';

const SPREADSHEET_SUFFIXES = new Set(['xls', 'xlsx', 'xlsm', 'xlsb', 'csv', 'tsv', 'ods', 'numbers']);

export interface RaptorSkipInput {
  /** The document's chunk method. */
  parserId: string;
  /** The document's file extension, lower case, without the dot. */
  suffix?: string;
  parserConfig?: { html4excel?: boolean; raptor?: { auto_disable_for_structured_data?: boolean } };
}

interface Skip {
  reason: string;
  /** The task-log line naming the skipped document. */
  line(name: string): string;
}

function structuredSkip(doc: RaptorSkipInput): Skip | null {
  if (doc.parserConfig?.raptor?.auto_disable_for_structured_data === false) return null;
  if (doc.parserId === 'table')
    return {
      reason: 'structured data (Table chunk method)',
      line: (name) => progressMessage('raptorSkippedTable', { name }),
    };
  if (doc.parserId === 'tag')
    return {
      reason: 'structured data (Tag chunk method)',
      line: (name) => progressMessage('raptorSkippedTag', { name }),
    };
  const suffix = (doc.suffix ?? '').toLowerCase().replace(/^\./, '');
  if (SPREADSHEET_SUFFIXES.has(suffix))
    return {
      reason: `structured data (.${suffix} spreadsheet)`,
      line: (name) => progressMessage('raptorSkippedSpreadsheet', { suffix, name }),
    };
  if (doc.parserConfig?.html4excel)
    return {
      reason: 'structured data (spreadsheet rendered as HTML tables)',
      line: (name) => progressMessage('raptorSkippedHtmlTables', { name }),
    };
  return null;
}

/** Why RAPTOR should skip this document, or null to include it. */
export function raptorSkipReason(doc: RaptorSkipInput): string | null {
  return structuredSkip(doc)?.reason ?? null;
}

/** The log line for a document RAPTOR skips (`Raptor skipped: <reason> (<name>)`), or null to include it. */
export function raptorSkipLine(doc: RaptorSkipInput, name: string): string | null {
  return structuredSkip(doc)?.line(name) ?? null;
}

export function raptorSkipMessage(reason: string): string {
  return `Raptor skipped: ${reason}`;
}

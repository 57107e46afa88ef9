/**
 * DOCX tables → span-aware rows: `w:gridSpan` becomes colspan, a `w:vMerge` restart/continue chain becomes
 * rowspan on the first cell, `w:gridBefore` shifts a row, `w:tblHeader` rows become header cells, and nested
 * tables are kept as nested HTML.
 */
import { onOff } from './docx-styles.js';
import { escapeHtml, tableHtml, tableText, type TableCell, type TableRow } from './table-html.js';
import { attr, child, type XmlElement } from './xml.js';

/** Renders one paragraph of a cell to text (supplied by the DOCX walker so cells share its rules). */
export type CellParagraphText = (p: XmlElement) => string;

export interface DocxTable {
  rows: TableRow[];
  html: string;
  text: string;
}

function rowsOf(tbl: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of tbl.children) {
    if (typeof c === 'string') continue;
    if (c.local === 'tr') out.push(c);
    else if (c.local === 'sdt' || c.local === 'customXml') {
      const inner = child(c, 'sdtContent') ?? c;
      out.push(...rowsOf(inner));
    }
  }
  return out;
}

function cellsOf(tr: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of tr.children) {
    if (typeof c === 'string') continue;
    if (c.local === 'tc') out.push(c);
    else if (c.local === 'sdt' || c.local === 'customXml') out.push(...cellsOf(child(c, 'sdtContent') ?? c));
  }
  return out;
}

function cellContent(tc: XmlElement, paragraphText: CellParagraphText): { text: string; html: string } {
  const texts: string[] = [];
  const htmls: string[] = [];
  const visit = (el: XmlElement) => {
    for (const c of el.children) {
      if (typeof c === 'string') continue;
      if (c.local === 'p') {
        const t = paragraphText(c).trim();
        if (t) {
          texts.push(t);
          htmls.push(escapeHtml(t).replace(/\n/g, '<br>'));
        }
      } else if (c.local === 'tbl') {
        const nested = buildDocxTable(c, paragraphText);
        if (nested.text) {
          texts.push(nested.text.replace(/\n/g, '; '));
          htmls.push(nested.html);
        }
      } else if (c.local === 'sdt') visit(child(c, 'sdtContent') ?? c);
      else if (c.local === 'customXml') visit(c);
    }
  };
  visit(tc);
  return { text: texts.join('\n'), html: htmls.join('<br>') };
}

export function buildDocxTable(tbl: XmlElement, paragraphText: CellParagraphText): DocxTable {
  const rows: TableRow[] = [];
  // The cell currently open for vertical merging in each grid column.
  const open = new Map<number, TableCell>();
  for (const tr of rowsOf(tbl)) {
    const trPr = child(tr, 'trPr');
    const header = onOff(child(trPr, 'tblHeader'));
    let col = Number(attr(child(trPr, 'gridBefore'), 'val') ?? 0);
    const row: TableRow = [];
    for (const tc of cellsOf(tr)) {
      const tcPr = child(tc, 'tcPr');
      const span = Math.max(1, Number(attr(child(tcPr, 'gridSpan'), 'val') ?? 1) || 1);
      const vMergeEl = child(tcPr, 'vMerge');
      const vMerge = vMergeEl ? (attr(vMergeEl, 'val') ?? 'continue') : undefined;
      if (vMerge === 'continue' && open.has(col)) {
        const origin = open.get(col)!;
        origin.rowspan = (origin.rowspan ?? 1) + 1;
        col += span;
        continue;
      }
      const content = cellContent(tc, paragraphText);
      const cell: TableCell = { text: content.text, html: content.html, header: header || undefined };
      if (span > 1) cell.colspan = span;
      for (let c = col; c < col + span; c++) open.delete(c);
      if (vMerge === 'restart') open.set(col, cell);
      row.push(cell);
      col += span;
    }
    rows.push(row);
  }
  return { rows, html: tableHtml(rows), text: tableText(rows) };
}

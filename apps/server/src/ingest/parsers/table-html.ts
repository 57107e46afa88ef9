/**
 * One table model for every format, rendered the same way everywhere: `<table>` with optional `<caption>`,
 * `<tr>`, `<th>`/`<td>` and `colspan`/`rowspan` only (no styles, no classes), plus a readable text form
 * (one line per row, cells joined by " | ").
 */
export interface TableCell {
  text: string;
  /** Inner HTML when it differs from the escaped text (e.g. line breaks, nested tables). */
  html?: string;
  colspan?: number;
  rowspan?: number;
  header?: boolean;
}
/** Only the cells that start at this row; cells covered by a span from above or the left are omitted. */
export type TableRow = TableCell[];

const HTML_SPECIAL = /[&<>"]/;

export function escapeHtml(s: string): string {
  if (!HTML_SPECIAL.test(s)) return s;
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function tableHtml(rows: TableRow[], caption?: string): string {
  let out = '<table>';
  if (caption) out += `<caption>${escapeHtml(caption)}</caption>`;
  for (const row of rows) {
    out += '<tr>';
    for (const cell of row) {
      const tag = cell.header ? 'th' : 'td';
      let attrs = '';
      if (cell.colspan && cell.colspan > 1) attrs += ` colspan="${cell.colspan}"`;
      if (cell.rowspan && cell.rowspan > 1) attrs += ` rowspan="${cell.rowspan}"`;
      out += `<${tag}${attrs}>${cell.html ?? escapeHtml(cell.text).replace(/\n/g, '<br>')}</${tag}>`;
    }
    out += '</tr>';
  }
  return out + '</table>';
}

export function tableText(rows: TableRow[]): string {
  return rows
    .map((row) =>
      row
        .map((c) => c.text.replace(/\s*\n\s*/g, ' ').trim())
        .join(' | ')
        .trim(),
    )
    .filter((line) => line.replace(/[|\s]/g, '') !== '')
    .join('\n');
}

/**
 * Builds span-aware rows from a dense grid where `merges` (0-based, inclusive) describe merged ranges:
 * the top-left cell of a range gets the spans, the rest are omitted.
 */
export function gridToRows(
  grid: string[][],
  merges: Array<{ r1: number; c1: number; r2: number; c2: number }> = [],
  headerRows = 0,
): TableRow[] {
  const covered = new Set<string>();
  const origin = new Map<string, { colspan: number; rowspan: number }>();
  for (const m of merges) {
    origin.set(`${m.r1},${m.c1}`, { colspan: m.c2 - m.c1 + 1, rowspan: m.r2 - m.r1 + 1 });
    for (let r = m.r1; r <= m.r2; r++)
      for (let c = m.c1; c <= m.c2; c++) if (r !== m.r1 || c !== m.c1) covered.add(`${r},${c}`);
  }
  return grid.map((cells, r) => {
    const row: TableRow = [];
    cells.forEach((text, c) => {
      if (covered.has(`${r},${c}`)) return;
      const span = origin.get(`${r},${c}`);
      row.push({ text, header: r < headerRows, colspan: span?.colspan, rowspan: span?.rowspan });
    });
    return row;
  });
}

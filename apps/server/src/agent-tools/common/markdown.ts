/** Rows as a Markdown pipe table (pandas `to_markdown(index=False, floatfmt=".6f")` look). */
function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(6);
  const s = typeof v === 'string' ? v : v instanceof Date ? v.toISOString() : JSON.stringify(v);
  return s.replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
}

export function markdownTable(rows: Array<Record<string, unknown>>, columns?: string[]): string {
  const cols = columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
  if (cols.length === 0) return '';
  const head = `| ${cols.map(cell).join(' | ')} |`;
  const rule = `|${cols.map(() => ':---').join('|')}|`;
  const body = rows.map((r) => `| ${cols.map((c) => cell(r[c])).join(' | ')} |`);
  return [head, rule, ...body].join('\n');
}

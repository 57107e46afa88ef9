/** Small text helpers shared by the graph prompts' parsers and renderers. */

/** Removes reasoning blocks (`<think>…</think>`, also an unterminated one) from a model answer. */
export function stripThink(text: string): string {
  return text.replace(/<think>[\s\S]*?(<\/think>|$)/gi, '');
}

/** RFC 4180 CSV with pandas' `to_csv()` shape: an unnamed index column first. */
export function toCsv(header: string[], rows: string[][], withIndex = false): string {
  const cell = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = [(withIndex ? ['', ...header] : header).map(cell).join(',')];
  rows.forEach((r, i) => lines.push((withIndex ? [String(i), ...r] : r).map(cell).join(',')));
  return lines.join('\n') + '\n';
}

/** The first balanced {...} in `text` (string-aware), or null. */
export function firstJsonObject(text: string): string | null {
  const start = text.indexOf('{');
  if (start < 0) return null;
  const open: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') open.push(ch === '{' ? '}' : ']');
    else if (ch === '}' || ch === ']') {
      open.pop();
      if (open.length === 0) return text.slice(start, i + 1);
    }
  }
  // A truncated answer: close what is open so the parts that did arrive can be read.
  const tail = text.slice(start).replace(/[,:]\s*$/, '');
  return tail + (inString ? '"' : '') + open.reverse().join('');
}

export function parseLooseJson(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    const repaired = json
      .replace(/,\s*([}\]])/g, '$1')
      .replace(/([{,]\s*)([A-Za-z_][\w]*)\s*:/g, '$1"$2":')
      // eslint-disable-next-line no-control-regex -- raw control characters inside strings break JSON.parse
      .replace(/[\u0000-\u001f]+/g, ' ');
    try {
      return JSON.parse(repaired);
    } catch {
      return null;
    }
  }
}

/**
 * Lenient parsing of text that should hold a value: JSON first, then a Python literal (single
 * quotes, True/False/None, tuples). Used by DataOperations `literal_eval`, structured-output
 * answers and the JSON-decoding step of variable paths.
 */
export function parseJsonLoose(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Parse a Python literal (dict/list/tuple/str/number/True/False/None); undefined when it is not one. */
export function parsePythonLiteral(text: string): { ok: true; value: unknown } | { ok: false } {
  const p = new LiteralParser(text.trim());
  try {
    const value = p.value();
    p.ws();
    if (p.i !== p.s.length) return { ok: false };
    return { ok: true, value };
  } catch {
    return { ok: false };
  }
}

class LiteralParser {
  i = 0;
  constructor(readonly s: string) {}
  ws() {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }
  value(): unknown {
    this.ws();
    const c = this.s[this.i];
    if (c === '{') return this.dict();
    if (c === '[') return this.seq('[', ']');
    if (c === '(') return this.seq('(', ')');
    if (c === '"' || c === "'") return this.str();
    return this.atom();
  }
  expect(ch: string) {
    this.ws();
    if (this.s[this.i] !== ch) throw new Error(`expected ${ch}`);
    this.i++;
  }
  dict(): Record<string, unknown> {
    this.expect('{');
    const out: Record<string, unknown> = {};
    this.ws();
    if (this.s[this.i] === '}') return (this.i++, out);
    for (;;) {
      const k = this.value();
      this.expect(':');
      out[String(k)] = this.value();
      this.ws();
      if (this.s[this.i] === ',') {
        this.i++;
        this.ws();
        if (this.s[this.i] === '}') return (this.i++, out);
        continue;
      }
      this.expect('}');
      return out;
    }
  }
  seq(open: string, close: string): unknown[] {
    this.expect(open);
    const out: unknown[] = [];
    this.ws();
    if (this.s[this.i] === close) return (this.i++, out);
    for (;;) {
      out.push(this.value());
      this.ws();
      if (this.s[this.i] === ',') {
        this.i++;
        this.ws();
        if (this.s[this.i] === close) return (this.i++, out);
        continue;
      }
      this.expect(close);
      return out;
    }
  }
  str(): string {
    const q = this.s[this.i++];
    let out = '';
    while (this.i < this.s.length && this.s[this.i] !== q) {
      const c = this.s[this.i++];
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.s[this.i++];
      const map: Record<string, string> = {
        n: '\n',
        t: '\t',
        r: '\r',
        '\\': '\\',
        "'": "'",
        '"': '"',
        '0': '\0',
      };
      if (e === 'u') {
        out += String.fromCharCode(parseInt(this.s.slice(this.i, this.i + 4), 16));
        this.i += 4;
      } else out += map[e] ?? e;
    }
    if (this.s[this.i] !== q) throw new Error('unterminated string');
    this.i++;
    return out;
  }
  atom(): unknown {
    const m = /^(True|False|None|true|false|null|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)/.exec(
      this.s.slice(this.i),
    );
    if (!m) throw new Error('not a literal');
    this.i += m[0].length;
    const t = m[0];
    if (t === 'True' || t === 'true') return true;
    if (t === 'False' || t === 'false') return false;
    if (t === 'None' || t === 'null') return null;
    return Number(t);
  }
}

/** JSON, then a Python literal; otherwise the text itself. */
export function parseValue(text: string): unknown {
  const j = parseJsonLoose(text);
  if (j.ok) return j.value;
  const p = parsePythonLiteral(text);
  return p.ok ? p.value : text;
}

/**
 * Pull a JSON object or array out of a model answer: anything up to `</think>` and code fences are
 * removed first (AGENTS.md §6.1 structured output).
 */
export function parseModelJson(answer: string): { ok: true; value: unknown } | { ok: false } {
  let text = answer;
  const think = text.lastIndexOf('</think>');
  if (think >= 0) text = text.slice(think + '</think>'.length);
  text = text.replace(/```(?:json|JSON)?/g, '').trim();
  const direct = parseJsonLoose(text);
  if (direct.ok) return direct;
  const start = text.search(/[{[]/);
  const end = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'));
  if (start >= 0 && end > start) {
    const inner = text.slice(start, end + 1);
    const j = parseJsonLoose(inner);
    if (j.ok) return j;
    const p = parsePythonLiteral(inner);
    if (p.ok) return p;
  }
  return { ok: false };
}

/**
 * DOCX styles (heading levels through `basedOn` chains) and numbering (list markers computed the way Word
 * displays them: counters per abstract list, `%1.%2.` level text, decimal/letter/roman formats, bullets).
 */
import { attr, child, childrenNamed, type XmlElement } from './xml.js';

interface StyleDef {
  name: string;
  basedOn?: string;
  outlineLvl?: number;
  numId?: string;
  ilvl?: number;
}

/** A WordprocessingML on/off property: present without `val`, or with a true-ish `val`. */
export function onOff(el: XmlElement | undefined): boolean {
  if (!el) return false;
  const v = attr(el, 'val');
  return v === undefined || !['0', 'false', 'off'].includes(v);
}

export class DocxStyles {
  private readonly styles = new Map<string, StyleDef>();
  private defaultParagraph?: string;

  constructor(root: XmlElement | null) {
    for (const s of childrenNamed(root ?? undefined, 'style')) {
      const id = attr(s, 'styleId');
      if (!id) continue;
      const type = attr(s, 'type') ?? 'paragraph';
      if (type !== 'paragraph') continue;
      const isDefault = attr(s, 'default');
      if (isDefault === '1' || isDefault === 'true') this.defaultParagraph = id;
      const pPr = child(s, 'pPr');
      const outline = attr(child(pPr, 'outlineLvl'), 'val');
      const numPr = child(pPr, 'numPr');
      this.styles.set(id, {
        name: (attr(child(s, 'name'), 'val') ?? id).trim(),
        basedOn: attr(child(s, 'basedOn'), 'val'),
        outlineLvl: outline !== undefined ? Number(outline) : undefined,
        numId: attr(child(numPr, 'numId'), 'val'),
        ilvl: numPr ? Number(attr(child(numPr, 'ilvl'), 'val') ?? 0) : undefined,
      });
    }
  }

  /** The paragraph's style id (explicit, or the document's default paragraph style). */
  styleOf(pPr: XmlElement | undefined): string | undefined {
    return attr(child(pPr, 'pStyle'), 'val') ?? this.defaultParagraph;
  }

  name(styleId: string | undefined): string {
    return (styleId && this.styles.get(styleId)?.name) || '';
  }

  private chain(styleId: string | undefined): StyleDef[] {
    const out: StyleDef[] = [];
    const seen = new Set<string>();
    let id = styleId;
    while (id && !seen.has(id) && out.length < 20) {
      seen.add(id);
      const s = this.styles.get(id);
      if (!s) break;
      out.push(s);
      id = s.basedOn;
    }
    return out;
  }

  /** 1-based heading level from the style name ("heading 2", "Title") or outline level; undefined for body text. */
  headingLevel(styleId: string | undefined): number | undefined {
    for (const s of this.chain(styleId)) {
      const m = /^heading\s*([1-9])$/i.exec(s.name);
      if (m) return Number(m[1]);
      if (/^title$/i.test(s.name)) return 1;
      if (s.outlineLvl !== undefined && s.outlineLvl >= 0 && s.outlineLvl < 9) return s.outlineLvl + 1;
    }
    return undefined;
  }

  isTitleStyle(styleId: string | undefined): boolean {
    return /^title$/i.test(this.name(styleId));
  }

  /** Numbering inherited from the style (e.g. "List Number"). */
  numPr(styleId: string | undefined): { numId: string; ilvl: number } | undefined {
    for (const s of this.chain(styleId)) if (s.numId) return { numId: s.numId, ilvl: s.ilvl ?? 0 };
    return undefined;
  }
}

interface LevelDef {
  start: number;
  numFmt: string;
  lvlText: string;
}

function roman(n: number): string {
  const table: Array<[number, string]> = [
    [1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'],
    [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i'],
  ]; // prettier-ignore
  let out = '';
  for (const [v, s] of table) {
    while (n >= v) {
      out += s;
      n -= v;
    }
  }
  return out;
}

function letters(n: number): string {
  // Word repeats the letter: a..z, aa..zz, aaa…
  const ch = String.fromCharCode(97 + ((n - 1) % 26));
  return ch.repeat(Math.floor((n - 1) / 26) + 1);
}

export function formatNumber(n: number, fmt: string): string {
  switch (fmt) {
    case 'lowerLetter':
      return letters(n);
    case 'upperLetter':
      return letters(n).toUpperCase();
    case 'lowerRoman':
      return roman(n);
    case 'upperRoman':
      return roman(n).toUpperCase();
    case 'decimalZero':
      return n < 10 ? `0${n}` : String(n);
    case 'none':
      return '';
    default:
      return String(n);
  }
}

export interface ListMarker {
  marker: string;
  bullet: boolean;
  level: number;
}

export class DocxNumbering {
  private readonly abstracts = new Map<string, Map<number, LevelDef>>();
  private readonly nums = new Map<
    string,
    { abstractId: string; starts: Map<number, number>; levels: Map<number, LevelDef> }
  >();
  private readonly counters = new Map<string, Array<number | undefined>>();
  private readonly overridesApplied = new Set<string>();

  constructor(root: XmlElement | null) {
    const readLevels = (el: XmlElement | undefined, into: Map<number, LevelDef>) => {
      for (const lvl of childrenNamed(el, 'lvl')) {
        into.set(Number(attr(lvl, 'ilvl') ?? 0), {
          start: Number(attr(child(lvl, 'start'), 'val') ?? 1),
          numFmt: attr(child(lvl, 'numFmt'), 'val') ?? 'decimal',
          lvlText: attr(child(lvl, 'lvlText'), 'val') ?? '',
        });
      }
    };
    for (const a of childrenNamed(root ?? undefined, 'abstractNum')) {
      const levels = new Map<number, LevelDef>();
      readLevels(a, levels);
      this.abstracts.set(attr(a, 'abstractNumId') ?? '', levels);
    }
    for (const n of childrenNamed(root ?? undefined, 'num')) {
      const starts = new Map<number, number>();
      const levels = new Map<number, LevelDef>();
      for (const o of childrenNamed(n, 'lvlOverride')) {
        const ilvl = Number(attr(o, 'ilvl') ?? 0);
        const so = attr(child(o, 'startOverride'), 'val');
        if (so !== undefined) starts.set(ilvl, Number(so));
        const lvl = child(o, 'lvl');
        if (lvl) readLevels({ ...o, children: [lvl] }, levels);
      }
      this.nums.set(attr(n, 'numId') ?? '', {
        abstractId: attr(child(n, 'abstractNumId'), 'val') ?? '',
        starts,
        levels,
      });
    }
  }

  private level(numId: string, ilvl: number): LevelDef | undefined {
    const num = this.nums.get(numId);
    if (!num) return undefined;
    return num.levels.get(ilvl) ?? this.abstracts.get(num.abstractId)?.get(ilvl);
  }

  /** Advances the list counters and returns the marker Word would show; null when not a list paragraph. */
  next(numId: string, ilvl: number): ListMarker | null {
    const num = this.nums.get(numId);
    const def = this.level(numId, ilvl);
    if (!num || !def || numId === '0') return null;
    if (def.numFmt === 'bullet') return { marker: '•', bullet: true, level: ilvl };
    const counters = this.counters.get(num.abstractId) ?? [];
    this.counters.set(num.abstractId, counters);
    if (!this.overridesApplied.has(numId)) {
      this.overridesApplied.add(numId);
      for (const lvl of num.starts.keys()) counters[lvl] = undefined;
    }
    const start = num.starts.get(ilvl) ?? def.start;
    counters[ilvl] = counters[ilvl] === undefined ? start : counters[ilvl]! + 1;
    for (let l = ilvl + 1; l < counters.length; l++) counters[l] = undefined;
    const marker = def.lvlText.replace(/%([1-9])/g, (_, k: string) => {
      const l = Number(k) - 1;
      const ld = this.level(numId, l);
      const value = counters[l] ?? num.starts.get(l) ?? ld?.start ?? 1;
      return formatNumber(value, l === ilvl ? def.numFmt : (ld?.numFmt ?? 'decimal'));
    });
    if (def.numFmt === 'none' && !marker.trim()) return { marker: '', bullet: false, level: ilvl };
    return { marker: marker.trim(), bullet: false, level: ilvl };
  }
}

/** `w:pPr/w:numPr` of a paragraph, if any. */
export function paragraphNumPr(pPr: XmlElement | undefined): { numId: string; ilvl: number } | undefined {
  const numPr = child(pPr, 'numPr');
  if (!numPr) return undefined;
  const numId = attr(child(numPr, 'numId'), 'val');
  if (numId === undefined) return undefined;
  return { numId, ilvl: Number(attr(child(numPr, 'ilvl'), 'val') ?? 0) };
}

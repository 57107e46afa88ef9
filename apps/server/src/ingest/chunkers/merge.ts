/**
 * The token-budget merge at the heart of naive chunking (API.md §19.7): units are appended to the
 * current chunk until it exceeds `chunk_token_num·(100−overlap)/100` tokens; the next chunk then starts
 * with the last `overlap %` of the previous one. Every unit's token count is computed once — the
 * accumulated text is never re-tokenized.
 */
import type { Position } from '../types.js';
import { countTokens } from '../tokens.js';
import { splitAtChars } from './delimiter.js';

export interface Unit {
  text: string;
  tokens: number;
  positions: Position[];
  /** Joiner placed before this unit when it follows another unit in the same chunk. */
  sep: string;
  /** Index of the section the unit came from (keeps output in document order). */
  index: number;
}

export interface Merged {
  text: string;
  tokens: number;
  positions: Position[];
  /** Section index of the chunk's first unit. */
  first: number;
}

export interface MergeOptions {
  chunkTokenNum: number;
  /** 0–99; share of the previous chunk carried into the next one. */
  overlappedPercent?: number;
}

/** The last `percent` % of `text`, starting at a word boundary when one is available. */
export function overlapTail(text: string, percent: number): string {
  if (percent <= 0 || !text) return '';
  let start = Math.floor((text.length * (100 - percent)) / 100);
  if (start > 0 && start < text.length && !/\s/.test(text[start - 1])) {
    const rel = text.slice(start).search(/\s/);
    if (rel >= 0) start += rel;
  }
  return text.slice(start).trim();
}

export function mergeUnits(units: Unit[], opts: MergeOptions): Merged[] {
  const overlap = Math.min(99, Math.max(0, opts.overlappedPercent ?? 0));
  const threshold = (opts.chunkTokenNum * (100 - overlap)) / 100;
  const out: Merged[] = [];
  let parts: string[] = [];
  let tokens = 0;
  let positions: Position[] = [];
  let first = -1;
  let lastPositions: Position[] = [];

  const close = (): string => {
    const text = parts.join('');
    out.push({ text, tokens, positions, first });
    return text;
  };

  for (const unit of units) {
    if (first < 0) {
      parts = [unit.text];
      tokens = unit.tokens;
      positions = [...unit.positions];
      first = unit.index;
    } else if (tokens > threshold) {
      const previous = close();
      const carried = overlapTail(previous, overlap);
      if (carried) {
        parts = [carried, unit.sep || ' ', unit.text];
        tokens = countTokens(carried) + unit.tokens;
        positions = [...lastPositions, ...unit.positions];
      } else {
        parts = [unit.text];
        tokens = unit.tokens;
        positions = [...unit.positions];
      }
      first = unit.index;
    } else {
      parts.push(unit.sep, unit.text);
      tokens += unit.tokens;
      for (const p of unit.positions) positions.push(p);
    }
    lastPositions = unit.positions;
  }
  if (first >= 0) close();
  return out;
}

/** Whitespace-free runs longer than the budget are cut into character windows that each fit it. */
function atomsOf(text: string, budget: number): Array<{ text: string; tokens: number }> {
  const atoms: Array<{ text: string; tokens: number }> = [];
  for (const atom of text.match(/\s+|\S+/g) ?? []) {
    if (atom === ' ') {
      atoms.push({ text: atom, tokens: 0 });
      continue;
    }
    const n = countTokens(atom);
    if (n <= budget || /^\s+$/.test(atom)) {
      atoms.push({ text: atom, tokens: n });
      continue;
    }
    const width = Math.max(1, Math.floor(budget / 3));
    for (let i = 0; i < atom.length; i += width) {
      const slice = atom.slice(i, i + width);
      atoms.push({ text: slice, tokens: countTokens(slice) });
    }
  }
  return atoms;
}

/** Splits a text longer than `budget` tokens at whitespace (character windows as a last resort). */
export function splitOversized(text: string, budget: number): Array<{ text: string; tokens: number }> {
  const pieces: Array<{ text: string; tokens: number }> = [];
  let current = '';
  let currentTokens = 0;
  for (const atom of atomsOf(text, budget)) {
    if (current && currentTokens + atom.tokens > budget) {
      pieces.push({ text: current, tokens: countTokens(current) });
      current = '';
      currentTokens = 0;
    }
    current += atom.text;
    currentTokens += atom.tokens;
  }
  if (current) pieces.push({ text: current, tokens: countTokens(current) });
  return pieces;
}

/**
 * Units of one text section: the whole section when it fits the budget, otherwise pieces cut at the
 * delimiter characters (each keeping its delimiter), oversized pieces cut further.
 */
export function unitsOfText(
  text: string,
  positions: Position[],
  index: number,
  budget: number,
  chars: Set<string>,
): Unit[] {
  const tokens = countTokens(text);
  if (tokens <= budget) return [{ text, tokens, positions, sep: '\n', index }];
  const units: Unit[] = [];
  for (const piece of splitAtChars(text, chars)) {
    const n = countTokens(piece);
    const parts = n <= budget ? [{ text: piece, tokens: n }] : splitOversized(piece, budget);
    for (const part of parts) {
      units.push({
        text: part.text,
        tokens: part.tokens,
        positions,
        sep: units.length === 0 ? '\n' : '',
        index,
      });
    }
  }
  return units;
}

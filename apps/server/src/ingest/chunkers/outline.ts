/**
 * Outline merge (book, laws): sections carry outline levels (numbering.ts); the first `maxDepth`
 * distinct heading levels form a path, deeper headings are body text. Every run of body text under a
 * path becomes chunk(s) whose content starts with that path, so each chunk keeps its section/article
 * hierarchy. Bodies longer than the budget are split, each piece repeating the path.
 */
import type { ChunkDraft, Position, Section } from '../types.js';
import { countTokens } from '../tokens.js';
import { mergePositions } from './common.js';
import { mediaDraft } from './media.js';
import { mergeUnits, unitsOfText, type Unit } from './merge.js';
import { BODY } from './numbering.js';

export interface OutlineOptions {
  maxDepth: number;
  budget: number;
  tableContext: number;
  imageContext: number;
}

interface Heading {
  level: number;
  text: string;
  positions: Position[];
  index: number;
  /** Some body text was emitted under this heading (itself or a descendant). */
  used: boolean;
}

interface Ordered {
  first: number;
  draft: ChunkDraft;
}

export function outlineChunks(sections: Section[], levels: number[], opts: OutlineOptions): ChunkDraft[] {
  const distinct = [...new Set(levels.filter((l) => l !== BODY))].sort((a, b) => a - b);
  const pathLevels = new Set(distinct.slice(0, opts.maxDepth));
  const out: Ordered[] = [];
  const stack: Heading[] = [];
  let body: Unit[] = [];

  const flushBody = () => {
    if (body.length === 0) return;
    const path = stack.map((h) => h.text.trim());
    const pathTokens = countTokens(path.join('\n'));
    const budget = Math.max(Math.ceil(opts.budget / 2), opts.budget - pathTokens);
    const inner = stack[stack.length - 1];
    mergeUnits(body, { chunkTokenNum: budget }).forEach((m, n) => {
      // The heading's own position belongs with the text right below it.
      const headPositions = n === 0 && inner ? inner.positions : [];
      out.push({
        first: n === 0 && inner && !inner.used ? inner.index : m.first,
        draft: {
          content_with_weight: [...path, m.text.trim()].filter(Boolean).join('\n'),
          positions: mergePositions([headPositions, m.positions]),
        },
      });
    });
    for (const h of stack) h.used = true;
    body = [];
  };

  /** A heading that never got body text still appears: as a chunk holding its path. */
  const popTo = (level: number) => {
    while (stack.length && stack[stack.length - 1].level >= level) {
      const h = stack[stack.length - 1];
      if (!h.used) {
        out.push({
          first: h.index,
          draft: {
            content_with_weight: stack.map((x) => x.text.trim()).join('\n'),
            positions: mergePositions([h.positions]),
          },
        });
        for (const x of stack) x.used = true;
      }
      stack.pop();
    }
  };

  sections.forEach((s, i) => {
    if (s.kind === 'table' || s.kind === 'figure') {
      out.push({ first: i, draft: mediaDraft(sections, i, opts.tableContext, opts.imageContext) });
      return;
    }
    const text = s.text ?? '';
    if (!text.trim()) return;
    const level = levels[i];
    if (level !== BODY && pathLevels.has(level)) {
      flushBody();
      popTo(level);
      stack.push({ level, text, positions: s.positions ?? [], index: i, used: false });
      return;
    }
    body.push(
      ...unitsOfText(
        text,
        s.positions ?? [],
        i,
        opts.budget,
        new Set(['\n', '。', '；', '！', '？', '!', '?', ';']),
      ),
    );
  });
  flushBody();
  popTo(Number.NEGATIVE_INFINITY);
  out.sort((a, b) => a.first - b.first);
  return out.map((o) => o.draft);
}

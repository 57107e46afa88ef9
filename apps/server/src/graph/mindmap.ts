/**
 * Mind map (`run_mindmap`, API.md §19.10): the model outlines batches of chunks as markdown (headings
 * and nested bullets); outlines are parsed into `{id, children[]}` trees and merged by title, giving the
 * `mind_map` record served by `kb/<id>/knowledge_graph` and `chunk/knowledge_graph` — which make node
 * ids unique by suffixing `(n)` (`uniqueMindMapIds`).
 */
import { isAbortError, mapConcurrent } from './concurrency.js';
import { addUsage, emptyUsage, type GraphChatModel, type TokenUsage } from './ports.js';
import { stripThink } from './text.js';
import { countTokens, truncateTokens } from './tokens.js';

export interface MindMapNode {
  id: string;
  children: MindMapNode[];
}

export function mindMapPrompt(text: string, language?: string): string {
  return `You turn a text into a mind map.
1. Give the text a short title.
2. Divide the text's content into main sections, and the sections into sub-sections where the matter is complex.
3. Under the deepest sections, add short summaries of the content.

Output requirements:
- At least 3 levels deep; make as many sections as the content supports.
- Write in ${language || 'the language of the text'}.
- Markdown only: "# " for the title, "## " and "### " for sections, "- " bullets indented by two spaces per level for what is below them. No other text.

-TEXT-
${text}`;
}

/** Entry text without markdown decoration. */
function cleanTitle(raw: string): string {
  return raw
    .replace(/\*\*|__|`/g, '')
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
    .replace(/\s+/g, ' ')
    .replace(/[:：]\s*$/, '')
    .trim();
}

/** Parses a markdown outline into a tree; several top-level titles hang under `rootName`. */
export function parseMindMapOutline(markdown: string, rootName = 'root'): MindMapNode {
  const root: MindMapNode = { id: rootName, children: [] };
  const stack: Array<{ level: number; node: MindMapNode }> = [{ level: -1, node: root }];
  let headingLevel = 0;
  for (const raw of stripThink(markdown).split('\n')) {
    if (!raw.trim() || /^\s*(```|---+\s*$|===+\s*$)/.test(raw)) continue;
    const heading = /^\s*(#{1,6})\s+(.*)$/.exec(raw);
    const bullet = /^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$/.exec(raw);
    let level: number;
    let text: string;
    if (heading) {
      level = heading[1].length - 1;
      headingLevel = level;
      text = heading[2];
    } else if (bullet) {
      // Bullets sit below the last heading; two spaces (or a tab) per indent level.
      const indent = bullet[1].replace(/\t/g, '  ').length;
      level = headingLevel + 1 + Math.floor(indent / 2);
      text = bullet[2];
    } else {
      // A bold pseudo-heading line or plain text: a child of whatever is open.
      level = (stack[stack.length - 1]?.level ?? 0) + 1;
      text = raw;
    }
    const id = cleanTitle(text);
    if (!id) continue;
    while (stack.length > 1 && stack[stack.length - 1].level >= level) stack.pop();
    const node: MindMapNode = { id, children: [] };
    stack[stack.length - 1].node.children.push(node);
    stack.push({ level, node });
  }
  return root.children.length === 1 ? root.children[0] : root;
}

/** Merges `b` into `a`: children with the same id merge recursively, others are appended. */
export function mergeMindMaps(a: MindMapNode, b: MindMapNode): MindMapNode {
  const byId = new Map(a.children.map((c) => [c.id, c]));
  for (const child of b.children) {
    const same = byId.get(child.id);
    if (same) mergeMindMaps(same, child);
    else {
      a.children.push(child);
      byId.set(child.id, child);
    }
  }
  return a;
}

/** Merges per-batch trees: one tree stays as it is; several share a root named `rootName`. */
export function combineMindMaps(trees: MindMapNode[], rootName = 'root'): MindMapNode {
  const nonEmpty = trees.filter((t) => t.id && (t.children.length > 0 || t.id !== 'root'));
  if (nonEmpty.length === 0) return { id: rootName, children: [] };
  if (nonEmpty.length === 1) return nonEmpty[0];
  const root: MindMapNode = { id: rootName, children: [] };
  for (const t of nonEmpty) mergeMindMaps(root, t.id === 'root' ? t : { id: rootName, children: [t] });
  return root;
}

/**
 * Makes ids unique in preorder: the first node named X keeps X, the next ones become `X(1)`, `X(2)`…
 * (the serving rule of `chunk/knowledge_graph`). Returns a new tree.
 */
export function uniqueMindMapIds(tree: unknown): unknown {
  const seen = new Map<string, number>();
  const visit = (node: unknown): unknown => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return node;
    const n = { ...(node as Record<string, unknown>) };
    if (typeof n.id === 'string') {
      const count = seen.get(n.id);
      if (count === undefined) seen.set(n.id, 1);
      else {
        seen.set(n.id, count + 1);
        n.id = `${n.id}(${count})`;
      }
    }
    if (Array.isArray(n.children)) n.children = n.children.map(visit);
    return n;
  };
  return visit(tree);
}

export interface MindMapOptions {
  model: GraphChatModel;
  concurrency: number;
  /** Tokens of chunk text per model call (default 6000; set below the model's context). */
  batchTokens?: number;
  language?: string;
  signal?: AbortSignal;
}

/** Groups texts into batches of at most `budget` tokens (a longer text is trimmed to the budget). */
export function batchTexts(texts: readonly string[], budget: number): string[] {
  const batches: string[] = [];
  let current: string[] = [];
  let used = 0;
  for (const t of texts) {
    const n = countTokens(t);
    if (used + n > budget && current.length) {
      batches.push(current.join('\n\n'));
      current = [];
      used = 0;
    }
    current.push(n > budget ? truncateTokens(t, budget) : t);
    used += Math.min(n, budget);
  }
  if (current.length) batches.push(current.join('\n\n'));
  return batches;
}

export async function buildMindMap(
  texts: readonly string[],
  opts: MindMapOptions,
): Promise<{ tree: MindMapNode; failed: number; batches: number; usage: TokenUsage }> {
  const usage = emptyUsage();
  let failed = 0;
  const batches = batchTexts(
    texts.filter((t) => t.trim()),
    opts.batchTokens ?? 6000,
  );
  const trees = await mapConcurrent(
    batches,
    opts.concurrency,
    async (text): Promise<MindMapNode | null> => {
      try {
        const answer = await opts.model.complete(
          [{ role: 'user', content: mindMapPrompt(text, opts.language) }],
          {
            signal: opts.signal,
            temperature: 0.3,
          },
        );
        addUsage(usage, answer.usage);
        const tree = parseMindMapOutline(answer.text);
        if (tree.id === 'root' && tree.children.length === 0) {
          failed++;
          return null;
        }
        return tree;
      } catch (err) {
        if (opts.signal?.aborted || isAbortError(err)) throw err;
        failed++;
        return null;
      }
    },
    opts.signal,
  );
  const ok = trees.filter((t): t is MindMapNode => t !== null);
  if (batches.length > 0 && ok.length === 0) {
    throw new Error(`Mind map failed: no usable answer from ${batches.length} model calls`);
  }
  return { tree: combineMindMaps(ok), failed, batches: batches.length, usage };
}

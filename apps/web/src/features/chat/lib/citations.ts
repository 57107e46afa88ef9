import type { Reference } from '@lectern/shared';

/**
 * Citations in answers are `[ID:n]`, `n` an index into the answer's `reference.chunks` (API.md §9,
 * §19.13). The server normalizes what models write; the client still tolerates spaces inside.
 */
export const CITATION = /\[ID:\s*(\d+)\s*\]/g;

export type AnswerPiece = { type: 'text'; text: string } | { type: 'citation'; index: number };

/** Splits a text into plain pieces and citations, in order. */
export function splitCitations(text: string): AnswerPiece[] {
  const pieces: AnswerPiece[] = [];
  let last = 0;
  for (const m of text.matchAll(CITATION)) {
    const at = m.index ?? 0;
    if (at > last) pieces.push({ type: 'text', text: text.slice(last, at) });
    pieces.push({ type: 'citation', index: Number(m[1]) });
    last = at + m[0].length;
  }
  if (last < text.length) pieces.push({ type: 'text', text: text.slice(last) });
  return pieces;
}

/** The distinct chunk indexes an answer cites, in order of first appearance. */
export function citedIndexes(text: string): number[] {
  const seen: number[] = [];
  for (const m of text.matchAll(CITATION)) {
    const n = Number(m[1]);
    if (!seen.includes(n)) seen.push(n);
  }
  return seen;
}

/** The answer without citation markers (for copying and speaking). */
export function stripCitations(text: string): string {
  return text.replace(/ ?\[ID:\s*\d+\s*\]/g, '');
}

/**
 * The documents to list under an answer: `doc_aggs` as the server reduced them; when an old entry
 * has none, the documents of the cited chunks.
 */
export function referencedDocuments(
  reference: Reference,
  text: string,
): Array<{ doc_id: string; doc_name: string }> {
  if (reference.doc_aggs.length > 0)
    return reference.doc_aggs.map((d) => ({ doc_id: d.doc_id, doc_name: d.doc_name }));
  const docs = new Map<string, string>();
  for (const i of citedIndexes(text)) {
    const chunk = reference.chunks[i];
    if (chunk && !docs.has(chunk.document_id)) docs.set(chunk.document_id, chunk.document_name);
  }
  return [...docs].map(([doc_id, doc_name]) => ({ doc_id, doc_name }));
}

/** Minimal mdast shapes the remark plugin below touches. */
interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
  data?: { hName?: string; hProperties?: Record<string, unknown> };
}

/** Node types whose text is shown verbatim: citations there stay as typed. */
const VERBATIM = new Set(['code', 'inlineCode', 'html']);

/** The mdast node a citation becomes: `<sup data-cite="n">n</sup>`, a badge once rendered. */
function citationNode(index: number): MdNode {
  return {
    type: 'citation',
    data: { hName: 'sup', hProperties: { dataCite: String(index) } },
    children: [{ type: 'text', value: String(index + 1) }],
  };
}

function transform(node: MdNode): void {
  if (!node.children || VERBATIM.has(node.type)) return;
  const next: MdNode[] = [];
  for (const child of node.children) {
    if (child.type === 'text' && typeof child.value === 'string' && /\[ID:\s*\d+\s*\]/.test(child.value)) {
      for (const piece of splitCitations(child.value)) {
        next.push(piece.type === 'text' ? { type: 'text', value: piece.text } : citationNode(piece.index));
      }
    } else {
      transform(child);
      next.push(child);
    }
  }
  node.children = next;
}

/** remark plugin: `[ID:n]` in text → citation nodes (code spans and blocks untouched). */
export function remarkCitations() {
  return (tree: MdNode) => transform(tree);
}

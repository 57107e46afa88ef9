import type { MindMapNode } from '@lectern/shared';

/** Pure helpers of the search page. */

const KBS_KEY = 'lectern.search.kbs';

/** The knowledge bases chosen last time (kept in this browser). */
export function storedKbIds(): string[] {
  try {
    const value = JSON.parse(localStorage.getItem(KBS_KEY) ?? '[]') as unknown;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function storeKbIds(ids: string[]): void {
  localStorage.setItem(KBS_KEY, JSON.stringify(ids));
}

export interface TreeItem {
  key: string;
  title: string;
  children?: TreeItem[];
}

/**
 * The mind map as tree items: node ids are the labels (they may repeat), so keys are paths. A node
 * without an id or a map that is not a tree gives an empty list.
 */
export function mindMapTree(node: MindMapNode | null | undefined, path = '0'): TreeItem[] {
  if (!node || typeof node !== 'object' || typeof node.id !== 'string') return [];
  const children = Array.isArray(node.children)
    ? node.children.flatMap((child, i) => mindMapTree(child, `${path}-${i}`))
    : [];
  return [{ key: path, title: node.id, ...(children.length > 0 ? { children } : {}) }];
}

/** Related questions as shown: trimmed, non-empty, no duplicates, not the question itself. */
export function cleanRelated(questions: unknown, asked: string): string[] {
  if (!Array.isArray(questions)) return [];
  const seen = new Set<string>([asked.trim().toLowerCase()]);
  const out: string[] = [];
  for (const q of questions) {
    if (typeof q !== 'string') continue;
    const text = q.trim();
    if (!text || seen.has(text.toLowerCase())) continue;
    seen.add(text.toLowerCase());
    out.push(text);
  }
  return out;
}

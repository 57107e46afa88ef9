/** What the file manager allows on an entry (API.md §12.1, §12.3). */
import type { FileListItem, FileRow } from '@lectern/shared';

/** Entries of the `.knowledgebase` mirror are read-only. */
export const isReadOnly = (f: Pick<FileRow, 'source_type'>) => f.source_type === 'knowledgebase';

/** Files a knowledge base can take: not folders, not `other` (unknown types). Folders link their files. */
export const isLinkable = (f: Pick<FileRow, 'type' | 'source_type'>) =>
  !isReadOnly(f) && f.type !== 'other' && f.type !== 'folder';

/** A file name split at its last dot (`a.tar.gz` → `a.tar`, `.gz`); rename keeps the extension. */
export function splitName(name: string, folder: boolean): { stem: string; ext: string } {
  const dot = name.lastIndexOf('.');
  if (folder || dot <= 0) return { stem: name, ext: '' };
  return { stem: name.slice(0, dot), ext: name.slice(dot) };
}

/** The ids a move may not target: the entries moved themselves (a folder cannot go into itself). */
export const movedIds = (entries: Array<Pick<FileRow, 'id'>>) => new Set(entries.map((e) => e.id));

/**
 * How the destination picker shows a folder: a folder being moved, or any folder beneath one, cannot
 * be chosen (the server refuses "Can't move a folder into itself."), and a blocked folder does not open,
 * so its sub-folders are never offered.
 */
export function destinationState(
  folder: Pick<FileRow, 'id'> & { has_child_folder?: boolean },
  moved: ReadonlySet<string>,
  insideMoved: boolean,
): { blocked: boolean; opens: boolean } {
  const blocked = insideMoved || moved.has(folder.id);
  return { blocked, opens: !blocked && !!folder.has_child_folder };
}

/** Groups picked files by the knowledge bases they end up linked to (their own plus `kbId`). */
export function linkGroups(entries: Pick<FileListItem, 'id' | 'kbs_info'>[], kbId: string) {
  const groups = new Map<string, { fileIds: string[]; kbIds: string[] }>();
  for (const e of entries) {
    const kbIds = [...new Set([...e.kbs_info.map((k) => k.kb_id), kbId])].sort();
    const key = kbIds.join(',');
    const group = groups.get(key) ?? { fileIds: [], kbIds };
    group.fileIds.push(e.id);
    groups.set(key, group);
  }
  return [...groups.values()];
}

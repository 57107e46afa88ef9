import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { FileListItem } from '@lectern/shared';
import '../../i18n';
import { fetchChildren } from '../../api/file';
import { destinationState } from './file-rules';
import { FileTreePicker } from './FileTreePicker';

/**
 * The move dialog's destination tree: the folder being moved cannot be picked and does not open, so
 * none of its sub-folders is offered; other folders open and can be picked.
 */

vi.mock('../../api/file', () => ({ fetchChildren: vi.fn() }));
// React's act() warns unless the environment says it is a test one.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const folder = (id: string, name: string, parentId: string, hasChildFolder: boolean): FileListItem => ({
  id,
  parent_id: parentId,
  tenant_id: 't',
  created_by: 't',
  name,
  location: '',
  size: 0,
  type: 'folder',
  source_type: '',
  create_time: 0,
  create_date: '',
  update_time: 0,
  update_date: '',
  kbs_info: [],
  has_child_folder: hasChildFolder,
});

const tree: Record<string, FileListItem[]> = {
  root: [folder('moved', 'Moved', 'root', true), folder('other', 'Other', 'root', true)],
  moved: [folder('moved-child', 'Moved child', 'moved', false)],
  other: [folder('other-child', 'Other child', 'other', false)],
};

let root: Root | null = null;
let host: HTMLDivElement;

beforeEach(() => {
  vi.mocked(fetchChildren).mockImplementation(async (parentId) => ({
    parent: folder(parentId ?? 'root', '/', '', true),
    entries: tree[parentId ?? 'root'] ?? [],
  }));
});

afterEach(async () => {
  act(() => root?.unmount());
  host?.remove();
  await new Promise((resolve) => setTimeout(resolve, 20));
});

const treeNode = (name: string) =>
  [...document.body.querySelectorAll('.ant-tree-treenode')].find(
    (n) => n.querySelector('.ant-tree-title')?.textContent === name,
  ) as HTMLElement | undefined;

const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 30)));

describe('destination folder picker', () => {
  it('blocks the moved folder and everything beneath it, not its siblings', () => {
    const moved = new Set(['moved']);
    expect(destinationState({ id: 'moved', has_child_folder: true }, moved, false)).toEqual({
      blocked: true,
      opens: false,
    });
    expect(destinationState({ id: 'moved-child', has_child_folder: true }, moved, true)).toEqual({
      blocked: true,
      opens: false,
    });
    expect(destinationState({ id: 'other', has_child_folder: true }, moved, false)).toEqual({
      blocked: false,
      opens: true,
    });
    expect(destinationState({ id: 'leaf', has_child_folder: false }, moved, false)).toEqual({
      blocked: false,
      opens: false,
    });
  });

  it('renders the moved folder disabled and closed; another folder opens and can be picked', async () => {
    host = document.createElement('div');
    document.body.appendChild(host);
    root = createRoot(host);
    const onChange = vi.fn();
    await act(async () => {
      root?.render(
        <FileTreePicker mode="folder" value={[]} onChange={onChange} disabledIds={new Set(['moved'])} />,
      );
    });
    await settle();

    const moved = treeNode('Moved')!;
    expect(moved.className).toContain('ant-tree-treenode-disabled');
    // a leaf: no expander, so its sub-folder can never be listed
    expect(moved.querySelector('.ant-tree-switcher-noop')).not.toBeNull();
    await act(async () => (moved.querySelector('.ant-tree-node-content-wrapper') as HTMLElement).click());
    expect(onChange).not.toHaveBeenCalled();
    expect(vi.mocked(fetchChildren)).not.toHaveBeenCalledWith('moved');

    const other = treeNode('Other')!;
    expect(other.className).not.toContain('ant-tree-treenode-disabled');
    await act(async () => (other.querySelector('.ant-tree-switcher') as HTMLElement).click());
    await settle();
    expect(vi.mocked(fetchChildren)).toHaveBeenCalledWith('other');
    const child = treeNode('Other child')!;
    await act(async () => (child.querySelector('.ant-tree-node-content-wrapper') as HTMLElement).click());
    expect(onChange).toHaveBeenLastCalledWith(
      ['other-child'],
      [expect.objectContaining({ id: 'other-child' })],
    );
    expect(treeNode('Moved child')).toBeUndefined();
  });
});

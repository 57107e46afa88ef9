import { useEffect, useState } from 'react';
import { Spin, Tree, type TreeDataNode } from 'antd';
import { FileOutlined, FolderOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { FileListItem } from '@lectern/shared';
import { fetchChildren } from '../../api/file';
import { destinationState, isLinkable, isReadOnly } from './file-rules';

/**
 * The file manager's tree, read folder by folder as it is opened. `folder` mode picks one destination
 * folder (the read-only `.knowledgebase` mirror, `disabledIds` and every folder beneath one of them cannot
 * be chosen, and those do not open); `files` mode
 * checks files (folders open to show their files) and hands back the checked entries with their links.
 */
export interface FileTreePickerProps {
  mode: 'folder' | 'files';
  value: string[];
  onChange: (ids: string[], entries: FileListItem[]) => void;
  /** Entries that cannot be picked (the folders being moved, files already linked). */
  disabledIds?: ReadonlySet<string>;
}

const NO_IDS: ReadonlySet<string> = new Set();

interface Node extends TreeDataNode {
  key: string;
  children?: Node[];
}

function patch(nodes: Node[], key: string, children: Node[]): Node[] {
  return nodes.map((n) =>
    n.key === key
      ? { ...n, children }
      : n.children
        ? { ...n, children: patch(n.children, key, children) }
        : n,
  );
}

export function FileTreePicker({ mode, value, onChange, disabledIds }: FileTreePickerProps) {
  const { t } = useTranslation();
  const [tree, setTree] = useState<Node[] | null>(null);
  const [known] = useState(() => new Map<string, FileListItem>());
  // Folders of `folder` mode that cannot be a destination (moved ones and everything beneath them).
  const [blockedFolders] = useState(() => new Set<string>());

  const toNode = (f: FileListItem, parentKey?: string): Node => {
    known.set(f.id, f);
    const folder = f.type === 'folder';
    const destination = destinationState(
      f,
      disabledIds ?? NO_IDS,
      parentKey !== undefined && blockedFolders.has(parentKey),
    );
    if (mode === 'folder' && destination.blocked) blockedFolders.add(f.id);
    const blocked = mode === 'folder' ? destination.blocked : (disabledIds?.has(f.id) ?? false);
    return {
      key: f.id,
      title: f.name,
      icon: folder ? <FolderOutlined /> : <FileOutlined />,
      isLeaf: mode === 'folder' ? !destination.opens : !folder,
      disabled: blocked,
      disableCheckbox: blocked,
      checkable: mode === 'files' && !folder,
    };
  };
  const keep = (f: FileListItem) =>
    !isReadOnly(f) && (mode === 'folder' ? f.type === 'folder' : f.type === 'folder' || isLinkable(f));
  const emit = (keys: React.Key[]) => {
    const ids = keys.map(String);
    onChange(
      ids,
      ids.map((id) => known.get(id)).filter((f): f is FileListItem => !!f),
    );
  };

  useEffect(() => {
    let live = true;
    void fetchChildren(undefined).then(({ parent, entries }) => {
      if (!live) return;
      setTree([
        {
          key: parent.id,
          title: t('files.root'),
          icon: <FolderOutlined />,
          children: entries.filter(keep).map((f) => toNode(f, parent.id)),
          checkable: false,
        },
      ]);
    });
    return () => {
      live = false;
    };
    // Read once per opening of the picker.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (!tree) return <Spin />;
  const load = async (node: { key: React.Key }) => {
    const key = String(node.key);
    const { entries } = await fetchChildren(key);
    const children = entries.filter(keep).map((f) => toNode(f, key));
    setTree((cur) => (cur ? patch(cur, key, children) : cur));
  };
  return (
    <Tree<Node>
      showIcon
      blockNode
      defaultExpandedKeys={[tree[0]!.key]}
      treeData={tree}
      loadData={load}
      style={{ maxHeight: 360, overflow: 'auto' }}
      {...(mode === 'folder'
        ? {
            selectedKeys: value,
            onSelect: (keys) => emit(keys),
          }
        : {
            checkable: true,
            checkStrictly: true,
            selectable: false,
            checkedKeys: value,
            onCheck: (keys) => emit(Array.isArray(keys) ? keys : keys.checked),
          })}
    />
  );
}

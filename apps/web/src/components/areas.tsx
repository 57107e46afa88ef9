import {
  DatabaseOutlined,
  FolderOpenOutlined,
  MessageOutlined,
  NodeIndexOutlined,
  SearchOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

export type AreaKey = 'knowledge' | 'chat' | 'file' | 'agent' | 'search';

/** The product areas, in header order, with their route and icon (texts come from `areas.*`). */
export const AREAS: ReadonlyArray<{ key: AreaKey; path: string; icon: ReactNode }> = [
  { key: 'knowledge', path: '/knowledge', icon: <DatabaseOutlined /> },
  { key: 'chat', path: '/chat', icon: <MessageOutlined /> },
  { key: 'file', path: '/file', icon: <FolderOpenOutlined /> },
  { key: 'agent', path: '/agent', icon: <NodeIndexOutlined /> },
  { key: 'search', path: '/search', icon: <SearchOutlined /> },
];

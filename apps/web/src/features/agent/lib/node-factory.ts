import { catalogueEntry } from '@lectern/agent-core/editor';
import {
  CONTAINER_LABELS,
  CONTAINER_START,
  HANDLE,
  edgeId,
  type AgentEdge,
  type AgentNode,
} from './flow-types';

/**
 * New nodes as the v0.24 editor makes them: id `<Operator>:<RandomWords>` (UserFillUp ids must keep
 * their prefix, AGENTS.md §2.3), name `<Operator>_<n>` unique in the canvas, the catalogue's initial
 * form, and for Iteration/Loop a container with its start node inside.
 */

const ADJECTIVES = [
  'Brave',
  'Calm',
  'Clever',
  'Eager',
  'Gentle',
  'Happy',
  'Keen',
  'Lively',
  'Quiet',
  'Swift',
  'Tidy',
  'Warm',
];
const NOUNS = [
  'Bears',
  'Birds',
  'Books',
  'Clouds',
  'Foxes',
  'Lamps',
  'Owls',
  'Rivers',
  'Seeds',
  'Stars',
  'Trees',
  'Waves',
];
const VERBS = [
  'Build',
  'Dance',
  'Find',
  'Glow',
  'Jump',
  'Learn',
  'Meet',
  'Read',
  'Sing',
  'Sort',
  'Think',
  'Walk',
];

const pick = (list: string[], random: () => number) => list[Math.floor(random() * list.length)];

export function newNodeId(operator: string, taken: Set<string>, random: () => number = Math.random): string {
  for (;;) {
    const id = `${operator}:${pick(ADJECTIVES, random)}${pick(NOUNS, random)}${pick(VERBS, random)}`;
    if (!taken.has(id)) return id;
  }
}

/** `<Operator>_<n>` with the smallest n not used by another node. */
export function newNodeName(operator: string, names: Set<string>): string {
  for (let n = 0; ; n++) {
    const name = `${operator}_${n}`;
    if (!names.has(name)) return name;
  }
}

export function initialForm(operator: string): Record<string, unknown> {
  if (operator === 'Note') return { text: '' };
  return structuredClone(catalogueEntry(operator)?.editorInitial ?? {});
}

export interface CreateNodeInput {
  operator: string;
  position: { x: number; y: number };
  existing: AgentNode[];
  parentId?: string;
  random?: () => number;
}

/** The node (and, for a container, its start node and inner layout). */
export function createNodes({
  operator,
  position,
  existing,
  parentId,
  random,
}: CreateNodeInput): AgentNode[] {
  const taken = new Set(existing.map((n) => n.id));
  const names = new Set(existing.map((n) => n.data.name));
  const id = newNodeId(operator, taken, random);
  taken.add(id);
  const name = operator === 'Note' ? newNodeName('Note', names) : newNodeName(operator, names);
  names.add(name);
  const node: AgentNode = {
    id,
    type: operator === 'Note' ? 'noteNode' : (catalogueEntry(operator)?.nodeType ?? 'ragNode'),
    position,
    data: { label: operator, name, form: initialForm(operator) },
    ...(parentId ? { parentId, extent: 'parent' as const } : {}),
  };
  if (!CONTAINER_LABELS.has(operator)) return [node];
  node.width = 520;
  node.height = 240;
  const startOp = CONTAINER_START[operator];
  const startId = newNodeId(startOp, taken, random);
  const start: AgentNode = {
    id: startId,
    type: catalogueEntry(startOp)?.nodeType ?? 'ragNode',
    position: { x: 40, y: 90 },
    parentId: id,
    extent: 'parent',
    data: { label: startOp, name: newNodeName(startOp, names), form: initialForm(startOp) },
  };
  return [node, start];
}

export function newEdge(
  source: string,
  sourceHandle: string | null | undefined,
  target: string,
  targetHandle?: string | null,
): AgentEdge {
  const sh = sourceHandle ?? HANDLE.source;
  const th = targetHandle ?? HANDLE.target;
  return { id: edgeId(source, sh, target, th), source, sourceHandle: sh, target, targetHandle: th };
}

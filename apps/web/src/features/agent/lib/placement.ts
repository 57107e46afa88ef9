import type { AgentNode } from './flow-types';

/**
 * Where a node added from the palette goes: in the visible part of the canvas, next to the selected
 * node (right of it first) or around the middle of the view, on a spot no other node covers. Nodes added
 * one after another therefore fill the view instead of piling up or walking off it.
 */

export interface Point {
  x: number;
  y: number;
}

export interface Rect extends Point {
  width: number;
  height: number;
}

/** Size assumed for a node React Flow has not measured yet (the new one, or one never rendered). */
export const DEFAULT_NODE_SIZE = { width: 200, height: 80 };
/** Free space kept between a new node and its neighbours. */
export const NODE_GAP = 40;
/** How far from the anchor the search goes (rings of candidate spots) before giving up on "free". */
const MAX_RINGS = 12;

export interface PlacementInput {
  /** The node to place next to (absolute flow coordinates), or null for "around the view centre". */
  anchor: Rect | null;
  /** The visible part of the canvas in flow coordinates; null when unknown (no layout yet). */
  view: Rect | null;
  /** What a new node must not overlap (absolute flow coordinates). */
  occupied: Rect[];
  size?: { width: number; height: number };
  gap?: number;
}

const overlaps = (a: Rect, b: Rect, gap: number) =>
  a.x < b.x + b.width + gap &&
  b.x < a.x + a.width + gap &&
  a.y < b.y + b.height + gap &&
  b.y < a.y + a.height + gap;

const inside = (r: Rect, view: Rect) =>
  r.x >= view.x &&
  r.y >= view.y &&
  r.x + r.width <= view.x + view.width &&
  r.y + r.height <= view.y + view.height;

/** `at` moved the least so a node of `size` lies inside `view` (unchanged when it cannot fit). */
function clampInto(at: Point, size: { width: number; height: number }, view: Rect): Point {
  const clamp = (v: number, lo: number, len: number, viewLen: number) =>
    len > viewLen ? v : Math.min(Math.max(v, lo), lo + viewLen - len);
  return {
    x: clamp(at.x, view.x, size.width, view.width),
    y: clamp(at.y, view.y, size.height, view.height),
  };
}

/**
 * Candidate top-left corners, nearest first: the preferred spot, then ring after ring of grid cells
 * (one node plus gap apart) around it. Next to an anchor, cells right of it come before the others, and
 * within a ring the ones closer to the preferred spot come first.
 */
function* candidates(start: Point, step: Point, preferRight: boolean): Generator<Point> {
  yield start;
  for (let ring = 1; ring <= MAX_RINGS; ring++) {
    const cells: Array<{ dx: number; dy: number }> = [];
    for (let dx = -ring; dx <= ring; dx++)
      for (let dy = -ring; dy <= ring; dy++)
        if (Math.max(Math.abs(dx), Math.abs(dy)) === ring) cells.push({ dx, dy });
    const cost = (c: { dx: number; dy: number }) =>
      (preferRight && c.dx < 0 ? 100 : 0) + Math.hypot(c.dx * step.x, c.dy * step.y);
    cells.sort((a, b) => cost(a) - cost(b));
    for (const c of cells) yield { x: start.x + c.dx * step.x, y: start.y + c.dy * step.y };
  }
}

/** The top-left corner for a new node (absolute flow coordinates). */
export function placeNewNode({
  anchor,
  view,
  occupied,
  size = DEFAULT_NODE_SIZE,
  gap = NODE_GAP,
}: PlacementInput): Point {
  const start = anchor
    ? { x: anchor.x + anchor.width + gap, y: anchor.y }
    : view
      ? { x: view.x + view.width / 2 - size.width / 2, y: view.y + view.height / 2 - size.height / 2 }
      : { x: 0, y: 0 };
  const step = { x: size.width + gap, y: size.height + gap };
  let firstFree: Point | null = null;
  const free = (at: Point) => !occupied.some((o) => overlaps({ ...at, ...size }, o, gap));
  for (const at of candidates(start, step, !!anchor)) {
    // a cell sticking out of the view is first tried pushed back inside it (a finer fit near edges)
    const fitted = view ? clampInto(at, size, view) : at;
    if (free(fitted) && (!view || inside({ ...fitted, ...size }, view))) return fitted;
    if (!firstFree && free(at)) firstFree = at;
  }
  // The view is full: the nearest free spot outside it (the editor then pans to it), else the start.
  return firstFree ?? start;
}

/**
 * The viewport centre that brings `rect` into `view` with the least movement, or null when it is
 * already fully visible (then the editor does not pan).
 */
export function centreToReveal(rect: Rect, view: Rect, margin = NODE_GAP): Point | null {
  if (inside(rect, view)) return null;
  const shift = (lo: number, len: number, viewLo: number, viewLen: number) => {
    if (len + 2 * margin > viewLen) return lo + len / 2 - (viewLo + viewLen / 2); // too big: centre it
    if (lo - margin < viewLo) return lo - margin - viewLo;
    if (lo + len + margin > viewLo + viewLen) return lo + len + margin - (viewLo + viewLen);
    return 0;
  };
  const dx = shift(rect.x, rect.width, view.x, view.width);
  const dy = shift(rect.y, rect.height, view.y, view.height);
  return { x: view.x + view.width / 2 + dx, y: view.y + view.height / 2 + dy };
}

/** Absolute position of a node (children are placed relative to their container). */
export function absolutePosition(node: AgentNode, byId: Map<string, AgentNode>): Point {
  const parent = node.parentId ? byId.get(node.parentId) : undefined;
  const base = parent ? absolutePosition(parent, byId) : { x: 0, y: 0 };
  return { x: base.x + node.position.x, y: base.y + node.position.y };
}

/** A node's area on the canvas (absolute), with its measured size or the default one. */
export function nodeRect(node: AgentNode, byId: Map<string, AgentNode>): Rect {
  const at = absolutePosition(node, byId);
  return {
    ...at,
    width: node.measured?.width ?? node.width ?? DEFAULT_NODE_SIZE.width,
    height: node.measured?.height ?? node.height ?? DEFAULT_NODE_SIZE.height,
  };
}

/**
 * What a new node in `parentId` (or on the top level) must keep clear of: its future siblings (on the
 * top level these include the containers, which cover their own children).
 */
export function obstaclesFor(nodes: AgentNode[], parentId: string | undefined): Rect[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  return nodes.filter((n) => n.parentId === parentId).map((n) => nodeRect(n, byId));
}

/** The inner area of a container where its children may go (below its title bar). */
export function containerInterior(container: AgentNode, byId: Map<string, AgentNode>): Rect {
  const r = nodeRect(container, byId);
  const fallback = { width: 520, height: 240 }; // a container's size as created
  const width = container.measured?.width ?? container.width ?? fallback.width;
  const height = container.measured?.height ?? container.height ?? fallback.height;
  return { x: r.x + 20, y: r.y + 60, width: Math.max(0, width - 40), height: Math.max(0, height - 80) };
}

import { describe, expect, it } from 'vitest';
import type { AgentNode } from './flow-types';
import {
  DEFAULT_NODE_SIZE,
  NODE_GAP,
  centreToReveal,
  containerInterior,
  obstaclesFor,
  placeNewNode,
  type Rect,
} from './placement';

const size = DEFAULT_NODE_SIZE;
const rect = (x: number, y: number): Rect => ({ x, y, ...size });
const overlap = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const within = (r: Rect, v: Rect) =>
  r.x >= v.x && r.y >= v.y && r.x + r.width <= v.x + v.width && r.y + r.height <= v.y + v.height;

const view: Rect = { x: 0, y: 0, width: 1200, height: 700 };

describe('placing a node added from the palette', () => {
  it('goes right of the selected node when that spot is free and visible', () => {
    const anchor = rect(100, 100);
    expect(placeNewNode({ anchor, view, occupied: [anchor] })).toEqual({
      x: 100 + size.width + NODE_GAP,
      y: 100,
    });
  });

  it('goes around the view centre without an anchor', () => {
    expect(placeNewNode({ anchor: null, view, occupied: [] })).toEqual({
      x: 600 - size.width / 2,
      y: 350 - size.height / 2,
    });
  });

  it('twenty nodes added one after another all land in the view, none overlapping', () => {
    const occupied: Rect[] = [];
    for (let i = 0; i < 20; i++) {
      const at = placeNewNode({ anchor: null, view, occupied });
      const placed = { ...at, ...size };
      expect(within(placed, view)).toBe(true);
      for (const o of occupied) expect(overlap(placed, o)).toBe(false);
      occupied.push(placed);
    }
  });

  it('chained after the selection (each new node selected), nodes stay visible and apart', () => {
    const occupied: Rect[] = [rect(40, 300)];
    let anchor = occupied[0]!;
    for (let i = 0; i < 12; i++) {
      const placed = { ...placeNewNode({ anchor, view, occupied }), ...size };
      expect(within(placed, view)).toBe(true);
      for (const o of occupied) expect(overlap(placed, o)).toBe(false);
      occupied.push(placed);
      anchor = placed;
    }
  });

  it('at the right edge of the view, a spot next to the anchor inside the view beats one off it', () => {
    const anchor = rect(view.width - size.width - 10, 300);
    const at = placeNewNode({ anchor, view, occupied: [anchor] });
    expect(within({ ...at, ...size }, view)).toBe(true);
    expect(overlap({ ...at, ...size }, anchor)).toBe(false);
    // nearest free cell: under or over the anchor, not somewhere across the view
    expect(Math.abs(at.x - anchor.x)).toBeLessThanOrEqual(size.width + NODE_GAP);
  });

  it('a full view gives the nearest free spot outside it; without a view, the first free spot', () => {
    const small: Rect = { x: 0, y: 0, width: 250, height: 100 };
    const at = placeNewNode({ anchor: null, view: small, occupied: [rect(25, 10)] });
    expect(overlap({ ...at, ...size }, rect(25, 10))).toBe(false);
    expect(within({ ...at, ...size }, small)).toBe(false);
    expect(
      placeNewNode({ anchor: rect(0, 0), view: null, occupied: [rect(0, 0), rect(240, 0)] }),
    ).not.toEqual({
      x: 240,
      y: 0,
    });
  });
});

describe('panning to a new node', () => {
  it('does not pan when the node is visible; pans the least to show it otherwise', () => {
    expect(centreToReveal(rect(100, 100), view)).toBeNull();
    // 100 px past the right edge (plus the margin): the centre moves right by that much only
    const off = rect(view.width - size.width + 100, 100);
    expect(centreToReveal(off, view)).toEqual({ x: 600 + 100 + NODE_GAP, y: 350 });
    const above = rect(100, -300);
    expect(centreToReveal(above, view)).toEqual({ x: 600, y: 350 - 300 - NODE_GAP });
  });
});

describe('obstacles', () => {
  const node = (id: string, x: number, y: number, extra: Partial<AgentNode> = {}): AgentNode => ({
    id,
    position: { x, y },
    data: { label: 'Message', name: id, form: {} },
    ...extra,
  });
  it('on the top level: top-level nodes and containers; in a container: its children, absolute', () => {
    const loop = node('loop', 500, 400, {
      width: 520,
      height: 240,
      data: { label: 'Loop', name: 'l', form: {} },
    });
    const child = node('child', 40, 90, { parentId: 'loop' });
    const top = node('top', 0, 0, { measured: { width: 300, height: 120 } });
    const nodes = [loop, child, top];
    expect(obstaclesFor(nodes, undefined)).toEqual([
      { x: 500, y: 400, width: 520, height: 240 },
      { x: 0, y: 0, width: 300, height: 120 },
    ]);
    expect(obstaclesFor(nodes, 'loop')).toEqual([{ x: 540, y: 490, ...size }]);
    const inner = containerInterior(loop, new Map(nodes.map((n) => [n.id, n])));
    const at = placeNewNode({ anchor: null, view: inner, occupied: obstaclesFor(nodes, 'loop') });
    expect(within({ ...at, ...size }, inner)).toBe(true);
    expect(overlap({ ...at, ...size }, { x: 540, y: 490, ...size })).toBe(false);
  });
});

import { useCallback, type DragEvent, type RefObject } from 'react';
import { useReactFlow } from '@xyflow/react';
import { CONTAINER_LABELS, type AgentNode } from '../lib/flow-types';
import {
  DEFAULT_NODE_SIZE,
  absolutePosition as absolute,
  centreToReveal,
  containerInterior,
  nodeRect as nodeRectOf,
  obstaclesFor,
  placeNewNode,
  type Point,
  type Rect,
} from '../lib/placement';
import { DRAG_TYPE } from './Palette';
import type { FlowEditor } from './use-flow-editor';

/** The innermost container (Iteration/Loop) under a flow point, with the point relative to it. */
export function containerAt(nodes: AgentNode[], point: Point): { id: string; relative: Point } | null {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  let found: { id: string; relative: Point; area: number } | null = null;
  for (const n of nodes) {
    if (!CONTAINER_LABELS.has(n.data.label)) continue;
    const at = absolute(n, byId);
    const w = n.measured?.width ?? n.width ?? 520;
    const h = n.measured?.height ?? n.height ?? 240;
    if (point.x < at.x || point.y < at.y || point.x > at.x + w || point.y > at.y + h) continue;
    if (!found || w * h < found.area)
      found = { id: n.id, relative: { x: point.x - at.x, y: point.y - at.y }, area: w * h };
  }
  return found ? { id: found.id, relative: found.relative } : null;
}

/**
 * Adding nodes from the palette: a drop lands where it is dropped (inside a container when dropped on
 * one); a click lands on a free spot of the view — right of the selected node (connected from it),
 * inside the selected container, or around the middle of the view (lib/placement.ts) — and the view
 * pans when the spot is not fully visible.
 */
export function useAddNode(
  editor: FlowEditor,
  wrapper: RefObject<HTMLDivElement | null>,
  select: (id: string) => void,
) {
  const flow = useReactFlow();

  /** The visible part of the canvas in flow coordinates (null before layout). */
  const viewRect = useCallback((): Rect | null => {
    const r = wrapper.current?.getBoundingClientRect();
    if (!r || r.width === 0 || r.height === 0) return null;
    const a = flow.screenToFlowPosition({ x: r.left, y: r.top });
    const b = flow.screenToFlowPosition({ x: r.right, y: r.bottom });
    return { x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y };
  }, [flow, wrapper]);

  /** Pans (keeping the zoom) so a node just added at `at` (absolute) is fully visible. */
  const reveal = useCallback(
    (at: Point) => {
      const view = viewRect();
      const centre = view && centreToReveal({ ...at, ...DEFAULT_NODE_SIZE }, view);
      if (centre) void flow.setCenter(centre.x, centre.y, { zoom: flow.getZoom(), duration: 200 });
    },
    [flow, viewRect],
  );

  /** A free spot for a child of `containerId`, relative to the container. */
  const spotInContainer = useCallback(
    (containerId: string): Point => {
      const nodes = editor.graph.nodes;
      const byId = new Map(nodes.map((n) => [n.id, n]));
      const container = byId.get(containerId);
      if (!container) return { x: 60, y: 100 };
      const at = placeNewNode({
        anchor: null,
        view: containerInterior(container, byId),
        occupied: obstaclesFor(nodes, containerId),
      });
      const base = absolute(container, byId);
      return { x: at.x - base.x, y: at.y - base.y };
    },
    [editor.graph.nodes],
  );

  const place = useCallback(
    (operator: string, point: Point, preferContainer?: string) => {
      const nodes = editor.graph.nodes;
      const inside = preferContainer
        ? { id: preferContainer, relative: spotInContainer(preferContainer) }
        : containerAt(nodes, point);
      if (
        operator === 'ExitLoop' &&
        (!inside || nodes.find((n) => n.id === inside.id)?.data.label !== 'Loop')
      )
        return;
      // containers are not nested by a drop; they go on the top level
      const parent = inside && !CONTAINER_LABELS.has(operator) ? inside : null;
      const created = editor.addOperator(operator, parent ? parent.relative : point, parent?.id);
      select(created.id);
      return created;
    },
    [editor, select, spotInContainer],
  );

  const onDragOver = useCallback((e: DragEvent) => {
    if (e.dataTransfer.types.includes(DRAG_TYPE)) {
      e.preventDefault();
      e.dataTransfer.dropEffect = 'move';
    }
  }, []);

  const onDrop = useCallback(
    (e: DragEvent) => {
      const operator = e.dataTransfer.getData(DRAG_TYPE);
      if (!operator) return;
      e.preventDefault();
      place(operator, flow.screenToFlowPosition({ x: e.clientX, y: e.clientY }));
    },
    [flow, place],
  );

  /** A click with nothing to attach to: a free spot of the view, around its middle. */
  const addInView = useCallback(
    (operator: string) => {
      const at = placeNewNode({
        anchor: null,
        view: viewRect(),
        occupied: obstaclesFor(editor.graph.nodes, undefined),
      });
      if (place(operator, at)) reveal(at);
    },
    [editor.graph.nodes, place, reveal, viewRect],
  );

  /**
   * A click: inside the selected container; after the selected node (connected from it) when it has a
   * plain out-handle; else in the middle of the view.
   */
  const addByClick = useCallback(
    (operator: string, selected: AgentNode | null) => {
      if (selected && CONTAINER_LABELS.has(selected.data.label) && !CONTAINER_LABELS.has(operator)) {
        place(operator, { x: 0, y: 0 }, selected.id);
        return;
      }
      const plainOut =
        selected && !['Switch', 'Categorize', 'ExitLoop', 'Note'].includes(selected.data.label);
      if (selected && plainOut && operator !== 'Note' && operator !== 'ExitLoop') {
        const nodes = editor.graph.nodes;
        const byId = new Map(nodes.map((n) => [n.id, n]));
        const anchor = byId.get(selected.id) ?? selected;
        const container = anchor.parentId ? byId.get(anchor.parentId) : undefined;
        const at = placeNewNode({
          anchor: nodeRectOf(anchor, byId),
          view: container ? containerInterior(container, byId) : viewRect(),
          occupied: obstaclesFor(nodes, anchor.parentId),
        });
        const base = container ? absolute(container, byId) : { x: 0, y: 0 };
        const created = editor.addOperatorAfter(operator, selected.id, {
          x: at.x - base.x,
          y: at.y - base.y,
        });
        if (created) {
          select(created.id);
          reveal(at);
        }
        return;
      }
      addInView(operator);
    },
    [addInView, editor, place, reveal, select, viewRect],
  );

  return { onDragOver, onDrop, addByClick };
}

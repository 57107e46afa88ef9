import { useCallback, type DragEvent, type RefObject } from 'react';
import { useReactFlow } from '@xyflow/react';
import { CONTAINER_LABELS, type AgentNode } from '../lib/flow-types';
import { DRAG_TYPE } from './Palette';
import type { FlowEditor } from './use-flow-editor';

type Point = { x: number; y: number };

/** Absolute position of a node (children are placed relative to their container). */
function absolute(node: AgentNode, byId: Map<string, AgentNode>): Point {
  const parent = node.parentId ? byId.get(node.parentId) : undefined;
  const base = parent ? absolute(parent, byId) : { x: 0, y: 0 };
  return { x: base.x + node.position.x, y: base.y + node.position.y };
}

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
 * one); a click lands in the middle of the view, or inside the selected container.
 */
export function useAddNode(
  editor: FlowEditor,
  wrapper: RefObject<HTMLDivElement | null>,
  select: (id: string) => void,
) {
  const flow = useReactFlow();

  const place = useCallback(
    (operator: string, point: Point, preferContainer?: string) => {
      const nodes = editor.graph.nodes;
      const inside = preferContainer
        ? {
            id: preferContainer,
            relative: { x: 60 + nodes.filter((n) => n.parentId === preferContainer).length * 30, y: 100 },
          }
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
    },
    [editor, select],
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

  const addAtCenter = useCallback(
    (operator: string, container: string | null) => {
      const rect = wrapper.current?.getBoundingClientRect();
      const center = rect
        ? flow.screenToFlowPosition({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 })
        : { x: 200, y: 200 };
      // spread clicks a little, so nodes added one after another do not sit on each other
      const n = editor.graph.nodes.length;
      place(
        operator,
        { x: center.x - 90 + (n % 5) * 24, y: center.y - 30 + (n % 5) * 24 },
        container ?? undefined,
      );
    },
    [editor.graph.nodes.length, flow, place, wrapper],
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
        const created = editor.addOperatorAfter(operator, selected.id);
        if (created) select(created.id);
        return;
      }
      addAtCenter(operator, null);
    },
    [addAtCenter, editor, place, select],
  );

  return { onDragOver, onDrop, addByClick };
}

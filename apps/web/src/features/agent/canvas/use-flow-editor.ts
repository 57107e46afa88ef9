import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  addEdge,
  applyEdgeChanges,
  applyNodeChanges,
  type Connection,
  type EdgeChange,
  type NodeChange,
} from '@xyflow/react';
import type { Dsl } from '@lectern/agent-core/editor';
import { Autosaver, type SaveState } from '../lib/autosave';
import { copySelection, pasteContent, type ClipboardContent } from '../lib/clipboard';
import { dslToFlow, sortParentsFirst } from '../lib/dsl-to-flow';
import { flowToDsl } from '../lib/flow-to-dsl';
import {
  HANDLE,
  edgeId,
  pruneDanglingEdges,
  type AgentEdge,
  type AgentNode,
  type AgentNodeData,
  type FlowGraph,
} from '../lib/flow-types';
import { UndoStack } from '../lib/history';
import { createNodes } from '../lib/node-factory';

/** How long after the last change the canvas is saved. */
export const AUTOSAVE_DELAY_MS = 1500;

export interface FlowEditorOptions {
  initialDsl: Dsl;
  save: (dsl: Dsl) => Promise<{ ok: true } | { ok: false; message: string }>;
}

/**
 * The editor's graph state: React Flow nodes/edges, undo/redo of every structural change and form
 * edit, copy/paste, and autosave of the DSL built from the graph.
 */
export function useFlowEditor({ initialDsl, save }: FlowEditorOptions) {
  const [graph, setGraph] = useState<FlowGraph>(() => dslToFlow(initialDsl));
  const [saveState, setSaveState] = useState<SaveState>({ kind: 'saved', at: null });
  const [, setTick] = useState(0);
  const base = useRef<Dsl>(initialDsl);
  // The latest graph, for callbacks that must not be re-created on every change.
  const graphRef = useRef(graph);
  const history = useRef(new UndoStack<FlowGraph>());
  const clipboard = useRef<ClipboardContent | null>(null);
  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  });
  const saver = useMemo(
    () =>
      new Autosaver<FlowGraph>({
        delayMs: AUTOSAVE_DELAY_MS,
        save: (g) => saveRef.current(flowToDsl(base.current, g)),
        onState: setSaveState,
      }),
    [],
  );

  // Leaving the editor saves what is pending.
  useEffect(() => () => void saver.flush(), [saver]);

  /** A change the person made: recorded for undo and saved. */
  const commit = useCallback(
    (next: FlowGraph, mergeKey: string | null = null) => {
      history.current.push(graphRef.current, mergeKey);
      graphRef.current = next;
      setGraph(next);
      saver.change(next);
      setTick((t) => t + 1);
    },
    [saver],
  );

  const onNodesChange = useCallback(
    (changes: NodeChange<AgentNode>[]) => {
      const current = graphRef.current;
      // Begin is always there (AGENTS.md §9.2)
      changes = changes.filter((c) => !(c.type === 'remove' && c.id === 'begin'));
      const removed = changes.filter((c) => c.type === 'remove').map((c) => c.id);
      const nodes = applyNodeChanges(changes, current.nodes);
      if (removed.length > 0) {
        const gone = new Set(removed);
        // a container takes its children with it
        for (const n of current.nodes) if (n.parentId && gone.has(n.parentId)) gone.add(n.id);
        commit({
          nodes: nodes.filter((n) => !gone.has(n.id)),
          edges: current.edges.filter((e) => !gone.has(e.source) && !gone.has(e.target)),
        });
        return;
      }
      const moved = changes.some((c) => c.type === 'position' && c.dragging === false);
      const next = { ...current, nodes };
      graphRef.current = next;
      setGraph(next);
      if (moved) saver.change(next);
    },
    [commit, saver],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange<AgentEdge>[]) => {
      const current = graphRef.current;
      const edges = applyEdgeChanges(changes, current.edges);
      if (changes.some((c) => c.type === 'remove')) commit({ ...current, edges });
      else {
        graphRef.current = { ...current, edges };
        setGraph(graphRef.current);
      }
    },
    [commit],
  );

  const onConnect = useCallback(
    (c: Connection) => {
      if (c.source === c.target) return;
      const current = graphRef.current;
      const sourceHandle = c.sourceHandle ?? HANDLE.source;
      const targetHandle = c.targetHandle ?? HANDLE.target;
      const edge: AgentEdge = {
        id: edgeId(c.source, sourceHandle, c.target, targetHandle),
        source: c.source,
        target: c.target,
        sourceHandle,
        targetHandle,
      };
      if (current.edges.some((e) => e.id === edge.id)) return;
      commit({ ...current, edges: addEdge(edge, current.edges) });
    },
    [commit],
  );

  /** Records the position before a drag, so undo puts the node back. */
  const onNodeDragStart = useCallback(() => history.current.push(graphRef.current), []);

  const addOperator = useCallback(
    (operator: string, position: { x: number; y: number }, parentId?: string) => {
      const current = graphRef.current;
      const created = createNodes({ operator, position, existing: current.nodes, parentId });
      commit({ ...current, nodes: sortParentsFirst([...current.nodes, ...created]) });
      return created[0];
    },
    [commit],
  );

  /**
   * A node placed at `at` (relative to the source's container; default: right of `sourceId`) in the
   * source's container, connected from its out-handle.
   */
  const addOperatorAfter = useCallback(
    (operator: string, sourceId: string, at?: { x: number; y: number }) => {
      const current = graphRef.current;
      const source = current.nodes.find((n) => n.id === sourceId);
      if (!source) return null;
      const position = at ?? { x: source.position.x + 280, y: source.position.y };
      const created = createNodes({ operator, position, existing: current.nodes, parentId: source.parentId });
      const edge: AgentEdge = {
        id: edgeId(sourceId, HANDLE.source, created[0].id, HANDLE.target),
        source: sourceId,
        sourceHandle: HANDLE.source,
        target: created[0].id,
        targetHandle: HANDLE.target,
      };
      commit({ nodes: sortParentsFirst([...current.nodes, ...created]), edges: [...current.edges, edge] });
      return created[0];
    },
    [commit],
  );

  const updateNodeData = useCallback(
    (id: string, patch: Partial<AgentNodeData>, mergeKey?: string) => {
      const current = graphRef.current;
      const nodes = current.nodes.map((n) => (n.id === id ? { ...n, data: { ...n.data, ...patch } } : n));
      commit({ ...current, nodes }, mergeKey ?? null);
    },
    [commit],
  );

  const updateForm = useCallback(
    (id: string, form: Record<string, unknown>, field: string) => {
      const current = graphRef.current;
      const nodes = current.nodes.map((n) => (n.id === id ? { ...n, data: { ...n.data, form } } : n));
      commit({ nodes, edges: pruneDanglingEdges(nodes, current.edges) }, `${id}:${field}`);
    },
    [commit],
  );

  const undo = useCallback(() => {
    const previous = history.current.undo(graphRef.current);
    if (!previous) return;
    graphRef.current = previous;
    setGraph(previous);
    saver.change(previous);
    setTick((t) => t + 1);
  }, [saver]);

  const redo = useCallback(() => {
    const next = history.current.redo(graphRef.current);
    if (!next) return;
    graphRef.current = next;
    setGraph(next);
    saver.change(next);
    setTick((t) => t + 1);
  }, [saver]);

  const copy = useCallback(() => {
    const selected = graphRef.current.nodes.filter((n) => n.selected).map((n) => n.id);
    clipboard.current = copySelection(graphRef.current, selected);
    return clipboard.current !== null;
  }, []);

  const paste = useCallback(() => {
    if (!clipboard.current) return false;
    const { pastedIds: _ids, ...next } = pasteContent(graphRef.current, clipboard.current);
    commit(next);
    return true;
  }, [commit]);

  /** Replaces the whole canvas (import, restored version); undoable. */
  const replaceDsl = useCallback(
    (dsl: Dsl) => {
      base.current = { ...base.current, ...dsl, graph: undefined, components: {} };
      commit(dslToFlow(dsl));
    },
    [commit],
  );

  /** After a run the server saved history/path/globals: keep them in the base of later saves. */
  const mergeRunState = useCallback((dsl: Dsl) => {
    const { components: _c, graph: _g, ...rest } = dsl;
    base.current = { ...base.current, ...rest };
  }, []);

  /** Saves what is pending now; resolves with the reason when the canvas could not be saved. */
  const flush = useCallback(async () => {
    await saver.flush();
    return saver.lastError;
  }, [saver]);

  const currentDsl = useCallback(() => flowToDsl(base.current, graphRef.current), []);

  return {
    graph,
    saveState,
    canUndo: history.current.canUndo,
    canRedo: history.current.canRedo,
    onNodesChange,
    onEdgesChange,
    onConnect,
    onNodeDragStart,
    addOperator,
    addOperatorAfter,
    updateNodeData,
    updateForm,
    undo,
    redo,
    copy,
    paste,
    replaceDsl,
    mergeRunState,
    currentDsl,
    flush,
  };
}

export type FlowEditor = ReturnType<typeof useFlowEditor>;

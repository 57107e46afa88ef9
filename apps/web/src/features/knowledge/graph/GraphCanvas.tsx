import { useEffect, useRef, useState } from 'react';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import Sigma from 'sigma';
import FA2Layout from 'graphology-layout-forceatlas2/worker';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import type { EdgeAttributes, KnowledgeGraph, NodeAttributes } from './graph-data';
import { graphViewSettings, LARGE_GRAPH } from './sigma-settings';

/**
 * The knowledge graph drawn with sigma (WebGL): community colours, PageRank sizes, labels of the
 * larger nodes; clicking a node selects it, the selected entity and its neighbours stay lit and the
 * camera moves to it. A ForceAtlas2 layout runs in a web worker for a few seconds after the first
 * frame (which uses the seeded community layout), so even 10,000 nodes appear at once.
 */

const DIM_NODE = '#e4e6ea';
const DIM_EDGE = '#eef0f2';
const HOT_EDGE = '#7a8594';

/** How long the worker layout refines the positions: longer for bigger graphs, at most 8 s. */
export function layoutMillis(order: number): number {
  return Math.min(8000, 1500 + order * 0.6);
}

interface Props {
  graph: KnowledgeGraph;
  selected: string | null;
  onSelect: (node: string | null) => void;
  label: string;
}

export function GraphCanvas({ graph, selected, onSelect, label }: Props) {
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  const sigmaRef = useRef<Sigma<NodeAttributes, EdgeAttributes> | null>(null);
  const selectedRef = useRef<string | null>(selected);
  const hoveredRef = useRef<string | null>(null);
  const onSelectRef = useRef(onSelect);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    onSelectRef.current = onSelect;
  }, [onSelect]);

  useEffect(() => {
    const el = container.current;
    if (!el) return;
    const large = graph.order > LARGE_GRAPH;
    let renderer: Sigma<NodeAttributes, EdgeAttributes>;
    const started = performance.now();
    try {
      renderer = new Sigma<NodeAttributes, EdgeAttributes>(graph, el, {
        ...graphViewSettings(graph.order),
        defaultEdgeColor: '#c8ccd2',
        minCameraRatio: 0.01,
        maxCameraRatio: 20,
        nodeReducer: (node, data) => {
          const focus = selectedRef.current ?? hoveredRef.current;
          if (!focus) return data;
          if (node === focus) return { ...data, highlighted: true, zIndex: 2, forceLabel: true };
          if (graph.areNeighbors(node, focus)) return { ...data, zIndex: 1, forceLabel: !large };
          return { ...data, color: DIM_NODE, label: '', zIndex: 0 };
        },
        edgeReducer: (edge, data) => {
          const focus = selectedRef.current ?? hoveredRef.current;
          if (!focus) return data;
          if (graph.hasExtremity(edge, focus)) return { ...data, color: HOT_EDGE, zIndex: 1 };
          return { ...data, color: DIM_EDGE, hidden: large, zIndex: 0 };
        },
      });
    } catch (error) {
      // No WebGL (a locked-down browser, a headless machine without GPU emulation): the search and
      // the side panel still work.
      console.warn('[graph] cannot draw the knowledge graph:', error);
      setFailed(true);
      return;
    }
    sigmaRef.current = renderer;
    el.dataset.renderMs = (performance.now() - started).toFixed(1);
    el.dataset.nodes = String(graph.order);
    renderer.on('clickNode', ({ node }) => onSelectRef.current(node));
    renderer.on('clickStage', () => onSelectRef.current(null));
    renderer.on('enterNode', ({ node }) => {
      hoveredRef.current = node;
      el.style.cursor = 'pointer';
      renderer.refresh({ skipIndexation: true });
    });
    renderer.on('leaveNode', () => {
      hoveredRef.current = null;
      el.style.cursor = '';
      renderer.refresh({ skipIndexation: true });
    });

    // Refine the seeded layout off the main thread, then stop.
    let layout: FA2Layout | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (graph.order > 1 && graph.size > 0) {
      const settings = forceAtlas2.inferSettings(graph);
      try {
        layout = new FA2Layout(graph, { settings: { ...settings, barnesHutOptimize: graph.order > 500 } });
        layout.start();
        timer = setTimeout(() => layout?.stop(), layoutMillis(graph.order));
      } catch (error) {
        console.warn('[graph] layout worker unavailable, keeping the seeded layout:', error);
      }
    }
    return () => {
      if (timer) clearTimeout(timer);
      layout?.kill();
      renderer.kill();
      sigmaRef.current = null;
    };
  }, [graph]);

  // Light the selected entity and move the camera to it.
  useEffect(() => {
    selectedRef.current = selected;
    const renderer = sigmaRef.current;
    if (!renderer) return;
    renderer.refresh({ skipIndexation: true });
    if (!selected || !graph.hasNode(selected)) return;
    const at = renderer.getNodeDisplayData(selected);
    if (!at) return;
    const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    void renderer.getCamera().animate({ x: at.x, y: at.y, ratio: 0.2 }, { duration: reduce ? 0 : 500 });
  }, [selected, graph]);

  if (failed) return <Alert type="warning" showIcon title={t('knowledge.graph.noWebgl')} />;
  return (
    <div
      ref={container}
      role="img"
      aria-label={label}
      data-testid="graph-canvas"
      style={{ width: '100%', height: '100%', minHeight: 480, background: 'var(--ant-color-bg-container)' }}
    />
  );
}

import { useMemo } from 'react';
import { loadDsl } from '@lectern/agent-core/editor';
import { dslToFlow } from '../lib/dsl-to-flow';

/** A small static picture of a DSL's graph (template gallery, version history): boxes and links. */
export function GraphPreview({ dsl, height = 120, label }: { dsl: unknown; height?: number; label: string }) {
  const shape = useMemo(() => {
    try {
      const { nodes, edges } = dslToFlow(loadDsl(dsl));
      const byId = new Map(nodes.map((n) => [n.id, n]));
      const abs = (id: string): { x: number; y: number } => {
        const n = byId.get(id);
        if (!n) return { x: 0, y: 0 };
        const p = n.parentId ? abs(n.parentId) : { x: 0, y: 0 };
        return { x: p.x + n.position.x, y: p.y + n.position.y };
      };
      const boxes = nodes.map((n) => {
        const { x, y } = abs(n.id);
        const w = typeof n.width === 'number' ? n.width : 180;
        const h = typeof n.height === 'number' ? n.height : 50;
        return {
          id: n.id,
          x,
          y,
          w,
          h,
          container: Boolean(n.width && n.height && n.width > 250),
          note: n.data.label === 'Note',
        };
      });
      if (boxes.length === 0) return null;
      const minX = Math.min(...boxes.map((b) => b.x)) - 20;
      const minY = Math.min(...boxes.map((b) => b.y)) - 20;
      const maxX = Math.max(...boxes.map((b) => b.x + b.w)) + 20;
      const maxY = Math.max(...boxes.map((b) => b.y + b.h)) + 20;
      const center = new Map(boxes.map((b) => [b.id, b]));
      const lines = edges
        .map((e) => [center.get(e.source), center.get(e.target)] as const)
        .filter((pair): pair is readonly [(typeof boxes)[number], (typeof boxes)[number]] =>
          Boolean(pair[0] && pair[1]),
        );
      return { boxes, lines, viewBox: `${minX} ${minY} ${maxX - minX} ${maxY - minY}` };
    } catch {
      return null;
    }
  }, [dsl]);
  if (!shape) return <div style={{ height, background: '#fafafa' }} role="img" aria-label={label} />;
  return (
    <svg
      viewBox={shape.viewBox}
      style={{ width: '100%', height, background: '#fafafa', display: 'block' }}
      role="img"
      aria-label={label}
      preserveAspectRatio="xMidYMid meet"
    >
      {shape.lines.map(([a, b], i) => (
        <line
          key={i}
          x1={a.x + a.w}
          y1={a.y + Math.min(a.h, 50) / 2}
          x2={b.x}
          y2={b.y + Math.min(b.h, 50) / 2}
          stroke="#91caff"
          strokeWidth={6}
        />
      ))}
      {shape.boxes.map((b) => (
        <rect
          key={b.id}
          x={b.x}
          y={b.y}
          width={b.w}
          height={b.h}
          rx={10}
          fill={b.note ? '#fffbe6' : b.container ? 'rgba(22,119,255,0.05)' : '#fff'}
          stroke={b.container ? '#bbb' : '#1677ff'}
          strokeDasharray={b.container ? '12 8' : undefined}
          strokeWidth={4}
        />
      ))}
    </svg>
  );
}

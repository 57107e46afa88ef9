import { theme } from 'antd';
import type { Point } from '../lib/stats';

/**
 * A small bar chart in SVG (no chart library): one bar per day, the value on hover (title) and in an
 * accessible table for screen readers and tests.
 */
export function MiniChart({
  title,
  points,
  digits = 0,
}: {
  title: string;
  points: Point[];
  digits?: number;
}) {
  const { token } = theme.useToken();
  const width = 320;
  const height = 120;
  const pad = { top: 10, right: 8, bottom: 22, left: 34 };
  const max = Math.max(0, ...points.map((p) => p.value));
  const top = max === 0 ? 1 : max;
  const innerW = width - pad.left - pad.right;
  const innerH = height - pad.top - pad.bottom;
  const slot = innerW / Math.max(1, points.length);
  const bar = Math.max(2, Math.min(28, slot * 0.6));
  const fmt = (v: number) => v.toFixed(digits);
  const label = (day: string) => day.slice(5);
  const every = Math.max(1, Math.ceil(points.length / 7));

  return (
    <figure style={{ margin: 0 }}>
      <figcaption style={{ fontWeight: 500, marginBottom: 4 }}>{title}</figcaption>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        role="img"
        aria-label={title}
        style={{ maxWidth: width * 1.6 }}
      >
        <line
          x1={pad.left}
          x2={width - pad.right}
          y1={pad.top + innerH}
          y2={pad.top + innerH}
          stroke={token.colorBorder}
        />
        <text x={pad.left - 4} y={pad.top + 4} textAnchor="end" fontSize={9} fill={token.colorTextSecondary}>
          {fmt(top)}
        </text>
        <text
          x={pad.left - 4}
          y={pad.top + innerH}
          textAnchor="end"
          fontSize={9}
          fill={token.colorTextSecondary}
        >
          0
        </text>
        {points.map((p, i) => {
          const h = (p.value / top) * innerH;
          const x = pad.left + i * slot + (slot - bar) / 2;
          return (
            <g key={p.day}>
              <rect
                x={x}
                y={pad.top + innerH - h}
                width={bar}
                height={Math.max(h, p.value > 0 ? 1 : 0)}
                rx={2}
                fill={token.colorPrimary}
              >
                <title>{`${p.day}: ${fmt(p.value)}`}</title>
              </rect>
              {i % every === 0 && (
                <text
                  x={x + bar / 2}
                  y={height - 6}
                  textAnchor="middle"
                  fontSize={9}
                  fill={token.colorTextSecondary}
                >
                  {label(p.day)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <table
        className="visually-hidden-table"
        style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}
      >
        <caption>{title}</caption>
        <tbody>
          {points.map((p) => (
            <tr key={p.day}>
              <th scope="row">{p.day}</th>
              <td data-testid="stat-value">{fmt(p.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

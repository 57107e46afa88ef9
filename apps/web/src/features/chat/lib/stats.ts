import dayjs, { type Dayjs } from 'dayjs';
import type { ChatStats } from '@lectern/shared';

/**
 * The API panel's statistics (API.md §10): per-day series for messages (pv), active users (uv),
 * token speed, tokens consumed (thousands), rounds and satisfaction (thumbs up), over a date range
 * that defaults to the last 7 days; and an overview of totals.
 */

export const STAT_KEYS = ['pv', 'uv', 'speed', 'tokens', 'round', 'thumb_up'] as const;
export type StatKey = (typeof STAT_KEYS)[number];

/** Default range: the last 7 days, today included. */
export function defaultRange(now: Dayjs = dayjs()): [Dayjs, Dayjs] {
  return [now.subtract(6, 'day').startOf('day'), now.endOf('day')];
}

/** Query of `GET /v1/api/stats` (a bare date means the whole day). */
export function statsQuery(range: [Dayjs, Dayjs]): { from_date: string; to_date: string } {
  return { from_date: range[0].format('YYYY-MM-DD'), to_date: range[1].format('YYYY-MM-DD') };
}

export interface Point {
  day: string;
  value: number;
}

/** One series over every day of the range (days without sessions count 0), by UTC calendar day. */
export function seriesOf(stats: ChatStats | undefined, key: StatKey, range: [Dayjs, Dayjs]): Point[] {
  const byDay = new Map<string, number>();
  for (const [date, value] of stats?.[key] ?? []) {
    const ms = Date.parse(date);
    if (!Number.isNaN(ms)) byDay.set(new Date(ms).toISOString().slice(0, 10), Number(value) || 0);
  }
  const points: Point[] = [];
  const last = range[1].format('YYYY-MM-DD');
  for (let d = range[0].startOf('day'), n = 0; n < 400; d = d.add(1, 'day'), n++) {
    const day = d.format('YYYY-MM-DD');
    points.push({ day, value: byDay.get(day) ?? 0 });
    if (day >= last) break;
  }
  return points;
}

export interface Overview {
  messages: number;
  activeUsers: number;
  tokens: number;
  speed: number;
  rounds: number;
  thumbUp: number;
}

/**
 * Totals over the range: sessions, users (the per-day maximum: a person active on two days is one
 * user), thousands of tokens, the average of the daily speeds and rounds of active days, thumbs up.
 */
export function overviewOf(stats: ChatStats | undefined): Overview {
  const values = (key: StatKey) => (stats?.[key] ?? []).map(([, v]) => Number(v) || 0);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const mean = (xs: number[]) => (xs.length === 0 ? 0 : sum(xs) / xs.length);
  return {
    messages: sum(values('pv')),
    activeUsers: Math.max(0, ...values('uv')),
    tokens: sum(values('tokens')),
    speed: mean(values('speed')),
    rounds: mean(values('round')),
    thumbUp: sum(values('thumb_up')),
  };
}

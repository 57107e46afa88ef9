import dayjs, { type Dayjs } from 'dayjs';
import type { ChatStats } from '@lectern/shared';

/**
 * The API panel's statistics (API.md §10): per-day series for messages (pv), active users (uv),
 * token speed, tokens consumed (thousands), rounds and satisfaction (thumbs up), over a date range
 * that defaults to the last 7 days; and an overview of totals.
 *
 * Days are UTC calendar days on both sides: the server groups sessions by the UTC date of their
 * creation and reads bare `from_date`/`to_date` as UTC days, so the range's dates are UTC dates too
 * (in a browser west of UTC the local date may still be yesterday while today's sessions are on
 * today's UTC date). The overview is computed from the very points the charts draw, so tiles and
 * charts always agree.
 */

export const STAT_KEYS = ['pv', 'uv', 'speed', 'tokens', 'round', 'thumb_up'] as const;
export type StatKey = (typeof STAT_KEYS)[number];

/** Default range: the last 7 UTC days, today's UTC date included (dates shown as they are). */
export function defaultRange(now: Dayjs = dayjs()): [Dayjs, Dayjs] {
  const today = dayjs(now.toDate().toISOString().slice(0, 10));
  return [today.subtract(6, 'day').startOf('day'), today.endOf('day')];
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
 * Totals over the range, from the charts' own points: sessions, users (the per-day maximum: a person
 * active on two days is one user), thousands of tokens and thumbs up are summed over the days; speed
 * and rounds are the average of the days with sessions.
 */
export function overviewOf(stats: ChatStats | undefined, range: [Dayjs, Dayjs]): Overview {
  const values = (key: StatKey) => seriesOf(stats, key, range).map((p) => p.value);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const active = values('pv').map((v) => v > 0);
  const meanOfActive = (xs: number[]) => {
    const kept = xs.filter((_, i) => active[i]);
    return kept.length === 0 ? 0 : sum(kept) / kept.length;
  };
  return {
    messages: sum(values('pv')),
    activeUsers: Math.max(0, ...values('uv')),
    tokens: sum(values('tokens')),
    speed: meanOfActive(values('speed')),
    rounds: meanOfActive(values('round')),
    thumbUp: sum(values('thumb_up')),
  };
}

import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import type { ChatStats } from '@lectern/shared';
import { defaultRange, overviewOf, seriesOf, statsQuery } from './stats';

const stats: ChatStats = {
  pv: [
    ['Mon, 05 May 2025 00:00:00 GMT', 3],
    ['Wed, 07 May 2025 00:00:00 GMT', 2],
  ],
  uv: [
    ['Mon, 05 May 2025 00:00:00 GMT', 2],
    ['Wed, 07 May 2025 00:00:00 GMT', 1],
  ],
  speed: [
    ['Mon, 05 May 2025 00:00:00 GMT', 30],
    ['Wed, 07 May 2025 00:00:00 GMT', 10],
  ],
  tokens: [
    ['Mon, 05 May 2025 00:00:00 GMT', 1.5],
    ['Wed, 07 May 2025 00:00:00 GMT', 0.5],
  ],
  round: [
    ['Mon, 05 May 2025 00:00:00 GMT', 2],
    ['Wed, 07 May 2025 00:00:00 GMT', 1],
  ],
  thumb_up: [
    ['Mon, 05 May 2025 00:00:00 GMT', 1],
    ['Wed, 07 May 2025 00:00:00 GMT', 0],
  ],
};

describe('statistics', () => {
  it('default to the last 7 days and ask with bare dates', () => {
    const range = defaultRange(dayjs('2025-05-10T15:00:00'));
    expect(statsQuery(range)).toEqual({ from_date: '2025-05-04', to_date: '2025-05-10' });
  });

  it('take today as the UTC date, as the server groups days (a browser west or east of UTC)', () => {
    // 23:30 in Los Angeles is already the next day in UTC, where today's sessions are counted.
    expect(statsQuery(defaultRange(dayjs('2025-05-10T23:30:00-08:00')))).toEqual({
      from_date: '2025-05-05',
      to_date: '2025-05-11',
    });
    // 08:00 in Kiribati (UTC+14) is still the previous day in UTC.
    expect(statsQuery(defaultRange(dayjs('2025-05-11T08:00:00+14:00')))).toEqual({
      from_date: '2025-05-04',
      to_date: '2025-05-10',
    });
  });

  it('fill every day of the range, days without sessions being 0', () => {
    const range = defaultRange(dayjs('2025-05-08T12:00:00'));
    expect(seriesOf(stats, 'pv', range)).toEqual([
      { day: '2025-05-02', value: 0 },
      { day: '2025-05-03', value: 0 },
      { day: '2025-05-04', value: 0 },
      { day: '2025-05-05', value: 3 },
      { day: '2025-05-06', value: 0 },
      { day: '2025-05-07', value: 2 },
      { day: '2025-05-08', value: 0 },
    ]);
    expect(seriesOf(undefined, 'uv', range).every((p) => p.value === 0)).toBe(true);
  });

  it('sum up an overview from the points the charts draw', () => {
    const range = defaultRange(dayjs('2025-05-08T12:00:00Z'));
    expect(overviewOf(stats, range)).toEqual({
      messages: 5,
      activeUsers: 2,
      tokens: 2,
      speed: 20,
      rounds: 1.5,
      thumbUp: 1,
    });
    // A day the server sent outside the range is in neither the charts nor the tiles.
    const narrow: [dayjs.Dayjs, dayjs.Dayjs] = [dayjs('2025-05-06'), dayjs('2025-05-08').endOf('day')];
    expect(overviewOf(stats, narrow)).toMatchObject({ messages: 2, activeUsers: 1, tokens: 0.5, thumbUp: 0 });
    expect(overviewOf(undefined, range)).toEqual({
      messages: 0,
      activeUsers: 0,
      tokens: 0,
      speed: 0,
      rounds: 0,
      thumbUp: 0,
    });
  });
});

import { describe, expect, it } from 'vitest';
import { formatDuration, lastLogLine, progressLog, progressPercent, runKey } from './progress';

describe('parsing progress', () => {
  it('names the run status codes of SPEC §4', () => {
    expect(['0', '1', '2', '3', '4', '5'].map(runKey)).toEqual([
      'unstart',
      'running',
      'cancel',
      'done',
      'fail',
      'schedule',
    ]);
    expect(runKey('9')).toBe('unstart');
  });

  it('turns progress into a whole percentage, failures into 0', () => {
    expect(progressPercent(0)).toBe(0);
    expect(progressPercent(0.004)).toBe(0);
    expect(progressPercent(0.456)).toBe(45);
    expect(progressPercent(1)).toBe(100);
    expect(progressPercent(-1)).toBe(0);
    expect(progressPercent(Number.NaN)).toBe(0);
  });

  it('splits the timestamped log and marks errors', () => {
    const msg =
      '10:00:01 Page(1~12): Start to parse.\n\n10:00:03 Page(1~12): Finish parsing.\n10:00:04 [ERROR] boom\nTask is queued...';
    expect(progressLog(msg)).toEqual([
      { time: '10:00:01', text: 'Page(1~12): Start to parse.', error: false },
      { time: '10:00:03', text: 'Page(1~12): Finish parsing.', error: false },
      { time: '10:00:04', text: '[ERROR] boom', error: true },
      { time: null, text: 'Task is queued...', error: false },
    ]);
    expect(lastLogLine(msg)).toBe('Task is queued...');
    expect(progressLog('')).toEqual([]);
    expect(lastLogLine(null)).toBe('');
  });

  it('formats durations', () => {
    expect(formatDuration(0.42)).toBe('0.4 s');
    expect(formatDuration(12.3)).toBe('12 s');
    expect(formatDuration(125)).toBe('2 min 5 s');
    expect(formatDuration(3725)).toBe('1 h 2 min');
    expect(formatDuration(-1)).toBe('0 s');
  });
});

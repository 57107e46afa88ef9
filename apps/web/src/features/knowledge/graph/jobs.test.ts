import { describe, expect, it } from 'vitest';
import type { KbTaskData } from '@lectern/shared';
import { jobView, tracePollMs } from './jobs';

const row = (progress: number, progress_msg = ''): KbTaskData => ({
  id: 't1',
  doc_id: '',
  kb_id: 'kb',
  task_type: 'graphrag',
  progress,
  progress_msg,
  begin_at: null,
  process_duration: 0,
  retry_count: 0,
  token_num: 0,
  create_time: 0,
  create_date: '',
  update_time: 0,
  update_date: '',
});

describe('jobView', () => {
  it('reads no task, running, done and failed rows', () => {
    expect(jobView(undefined).state).toBe('none');
    expect(jobView({}).state).toBe('none');
    expect(jobView(row(0))).toMatchObject({ state: 'running', percent: 0, taskId: 't1' });
    expect(jobView(row(0.456, 'a\nb'))).toMatchObject({ state: 'running', percent: 45, log: 'a\nb' });
    expect(jobView(row(0.9999)).percent).toBe(99);
    expect(jobView(row(1))).toMatchObject({ state: 'done', percent: 100 });
    expect(jobView(row(-1, 'Task has been canceled.'))).toMatchObject({ state: 'failed', percent: 0 });
  });
  it('polls only while running', () => {
    expect(tracePollMs(row(0.3))).toBe(1500);
    expect(tracePollMs(row(1))).toBe(false);
    expect(tracePollMs(row(-1))).toBe(false);
    expect(tracePollMs({})).toBe(false);
  });
});

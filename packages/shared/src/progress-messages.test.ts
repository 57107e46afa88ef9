import { describe, expect, it } from 'vitest';
import {
  matchProgressMessage,
  progressMessage,
  progressMessageParams,
  progressPagePrefix,
  PROGRESS_MESSAGES,
  splitProgressLine,
  type ProgressMessageKey,
} from './progress-messages.js';

const KEYS = Object.keys(PROGRESS_MESSAGES) as ProgressMessageKey[];

/** Params for a template, each value distinct, with the punctuation real names and errors carry. */
function sampleParams(key: ProgressMessageKey, style: 'plain' | 'awkward'): Record<string, string> {
  return Object.fromEntries(
    progressMessageParams(key).map((name, i) => [
      name,
      style === 'plain' ? String(10 + i) : `a (${name}): b, ${i}.`,
    ]),
  );
}

function build(key: ProgressMessageKey, params: Record<string, string>): string {
  // The typed builder takes exactly the template's params; the loop here goes over every key.
  return (progressMessage as unknown as (k: ProgressMessageKey, p?: Record<string, string>) => string)(
    key,
    params,
  );
}

describe('progress message catalogue', () => {
  it('has templates with distinct placeholders and no two identical sentences', () => {
    expect(KEYS.length).toBeGreaterThan(100);
    for (const key of KEYS) {
      const names = progressMessageParams(key);
      expect(new Set(names).size, key).toBe(names.length);
    }
    expect(new Set(Object.values(PROGRESS_MESSAGES)).size).toBe(KEYS.length);
  });

  it('fills the params in exactly as the template says', () => {
    expect(progressMessage('generateChunks', { count: 12 })).toBe('Generate 12 chunks');
    expect(progressMessage('tasksAhead', { count: 3 })).toBe('3 tasks are ahead in the queue...');
    expect(progressMessage('startParse')).toBe('Start to parse.');
    expect(progressMessage('pdfOcrPage', { page: 12, total: 40 })).toBe('OCR page 12/40.');
    expect(progressPagePrefix(1, 12)).toBe('Page(1~12): ');
  });

  for (const style of ['plain', 'awkward'] as const) {
    it(`recognizes every message it builds as itself, with its params (${style} values)`, () => {
      const wrong: string[] = [];
      for (const key of KEYS) {
        const params = sampleParams(key, style);
        const matched = matchProgressMessage(build(key, params));
        if (matched?.key !== key) wrong.push(`${key} read as ${matched?.key ?? 'nothing'}`);
        // Awkward values can be split another way where two params sit side by side in prose.
        else if (style === 'plain') expect(matched.params, key).toEqual(params);
      }
      expect(wrong).toEqual([]);
    });
  }

  it('knows nothing of lines it did not write', () => {
    expect(matchProgressMessage('boom')).toBeNull();
    expect(matchProgressMessage('Start to parse. Extra')).toBeNull();
    expect(matchProgressMessage('')).toBeNull();
  });

  it('splits a log line into time, page range, marks and message', () => {
    expect(splitProgressLine('10:00:01 Page(1~12): Start to parse.')).toEqual({
      time: '10:00:01',
      page: { from: '1', to: '12' },
      error: false,
      canceled: false,
      message: 'Start to parse.',
    });
    expect(splitProgressLine('10:00:04 [ERROR] The task failed: boom')).toMatchObject({
      error: true,
      page: null,
      message: 'The task failed: boom',
    });
    expect(splitProgressLine('10:00:05 Task has been canceled. [Canceled]')).toMatchObject({
      canceled: true,
      message: 'Task has been canceled.',
    });
    expect(splitProgressLine('Task is queued...')).toMatchObject({
      time: null,
      message: 'Task is queued...',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { parseSse, SSE_DONE, sseDataFrame, sseErrorFrame, sseFrame } from './sse.js';

describe('SSE framing (API.md §1.1, §9)', () => {
  it('writes data: + JSON without a space, then a blank line', () => {
    expect(sseFrame({ a: 'ü' })).toBe('data:{"a":"ü"}\n\n');
    expect(sseDataFrame({ answer: 'x' })).toBe('data:{"code":0,"message":"","data":{"answer":"x"}}\n\n');
  });

  it('has the exact terminator and error event', () => {
    expect(SSE_DONE).toBe('data:{"code":0,"message":"","data":true}\n\n');
    expect(sseErrorFrame('boom')).toBe(
      'data:{"code":500,"message":"boom","data":{"answer":"**ERROR**: boom","reference":[]}}\n\n',
    );
  });

  it('round-trips through the parser, including newlines inside JSON strings', () => {
    const body = sseDataFrame({ answer: 'line1\nline2\n\n' }) + SSE_DONE;
    expect(parseSse(body)).toEqual([
      { code: 0, message: '', data: { answer: 'line1\nline2\n\n' } },
      { code: 0, message: '', data: true },
    ]);
  });
});

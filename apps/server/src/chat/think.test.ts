import { describe, expect, it } from 'vitest';
import { ThinkSplitter, type ModelPart, type ThinkOut } from './think.js';

function run(parts: ModelPart[]): { out: ThinkOut[]; s: ThinkSplitter } {
  const s = new ThinkSplitter();
  const out = parts.flatMap((p) => s.push(p));
  out.push(...s.finish());
  return { out, s };
}

describe('ThinkSplitter', () => {
  it('wraps provider reasoning deltas in start/end markers before the answer', () => {
    const { out, s } = run([
      { type: 'reasoning', text: 'Let me ' },
      { type: 'reasoning', text: 'think.' },
      { type: 'text', text: 'Answer' },
      { type: 'text', text: '!' },
    ]);
    expect(out).toEqual([
      { kind: 'start' },
      { kind: 'text', text: 'Let me ', thinking: true },
      { kind: 'text', text: 'think.', thinking: true },
      { kind: 'end' },
      { kind: 'text', text: 'Answer', thinking: false },
      { kind: 'text', text: '!', thinking: false },
    ]);
    expect(s.reasoning).toBe('Let me think.');
    expect(s.answer).toBe('Answer!');
  });

  it('finds inline <think> tags split across deltas', () => {
    const { out, s } = run([
      { type: 'text', text: '<thi' },
      { type: 'text', text: 'nk>hmm</th' },
      { type: 'text', text: 'ink>Yes.' },
    ]);
    expect(out.map((o) => o.kind)).toEqual(['start', 'text', 'end', 'text']);
    expect(s.reasoning).toBe('hmm');
    expect(s.answer).toBe('Yes.');
  });

  it('treats a <think> in the middle of an answer as text and closes an unterminated block', () => {
    const a = run([{ type: 'text', text: 'Use the <think> tag.' }]);
    expect(a.s.answer).toBe('Use the <think> tag.');
    expect(a.out.map((o) => o.kind)).toEqual(['text']);
    const b = run([{ type: 'text', text: '<think>never closed' }]);
    expect(b.out.map((o) => o.kind)).toEqual(['start', 'text', 'end']);
  });

  it('passes a plain stream through untouched, holding back only a possible tag prefix', () => {
    const { out, s } = run([
      { type: 'text', text: 'Hello <' },
      { type: 'text', text: 'b> world' },
    ]);
    expect(s.answer).toBe('Hello <b> world');
    expect(out.every((o) => o.kind === 'text')).toBe(true);
  });
});

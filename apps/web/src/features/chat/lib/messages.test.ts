import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@lectern/shared';
import {
  lastAnswerIndex,
  nameFromQuestion,
  newId,
  referenceAt,
  referenceSlots,
  regenerateRequest,
  withQuestion,
} from './messages';

const conv: ChatMessage[] = [
  { role: 'assistant', content: 'Hi!' },
  { role: 'user', content: 'Q1', id: 'q1' },
  { role: 'assistant', content: 'A1 [ID:0]', id: 'q1' },
  { role: 'user', content: 'Q2', id: 'q2' },
  { role: 'assistant', content: 'A2', id: 'q2' },
];

describe('conversation messages', () => {
  it('maps each answer to its reference entry (the greeting has none)', () => {
    expect([...referenceSlots(conv)]).toEqual([
      [2, 0],
      [4, 1],
    ]);
    const ref = { chunks: [], doc_aggs: [{ doc_id: 'd', doc_name: 'n', count: 1 }] };
    expect(referenceAt({ message: conv, reference: [{}, ref] }, 4).doc_aggs).toHaveLength(1);
    expect(referenceAt({ message: conv, reference: [{}, ref] }, 2)).toEqual({ chunks: [], doc_aggs: [] });
    expect(referenceAt({ message: conv, reference: [] }, 0)).toEqual({ chunks: [], doc_aggs: [] });
  });

  it('regenerates the last answer by re-sending its question with the same id', () => {
    expect(lastAnswerIndex(conv)).toBe(4);
    expect(regenerateRequest(conv, 4)).toEqual(conv.slice(0, 4));
    expect(regenerateRequest(conv, 4)?.at(-1)).toEqual({ role: 'user', content: 'Q2', id: 'q2' });
    expect(regenerateRequest(conv, 0)).toBeNull();
    expect(regenerateRequest(conv, 3)).toBeNull();
    expect(lastAnswerIndex(conv.slice(0, 4))).toBe(-1);
    expect(lastAnswerIndex(conv.slice(0, 1))).toBe(-1);
  });

  it('adds a question with a new 32-hex id', () => {
    const next = withQuestion(conv, 'Q3');
    expect(next.slice(0, 5)).toEqual(conv);
    expect(next[5]).toMatchObject({ role: 'user', content: 'Q3' });
    expect(next[5].id).toMatch(/^[0-9a-f]{32}$/);
    expect(newId()).not.toBe(newId());
  });

  it('names a conversation after its first question', () => {
    expect(nameFromQuestion('  What is\nthe capital?  ')).toBe('What is the capital?');
    expect([...nameFromQuestion('x'.repeat(100))]).toHaveLength(60);
  });
});

import { describe, expect, it } from 'vitest';
import { countTokens } from '../ingest/tokens.js';
import { assemblePrompt, CITATION_PROMPT, fillSystem, knowledgeBlock } from './prompt.js';
import type { RefChunk } from './types.js';

function chunk(i: number, words: number): RefChunk {
  return {
    chunk_id: `c${i}`,
    content_with_weight: Array.from({ length: words }, (_, k) => `word${i}x${k}`).join(' '),
    doc_id: `d${i}`,
    docnm_kwd: `doc${i}.txt`,
    kb_id: 'kb',
    important_kwd: [],
    image_id: '',
    positions: [],
    similarity: 1,
    vector_similarity: 1,
    term_similarity: 1,
    doc_type_kwd: '',
  };
}

const base = {
  system: 'You answer from this knowledge:\n{knowledge}\nEnd.',
  parameters: [{ key: 'knowledge', optional: false }],
  values: {},
  quote: true,
};

describe('fillSystem', () => {
  it('fills {knowledge} and custom variables, blanks missing optional ones, refuses missing required ones', () => {
    const params = [
      { key: 'knowledge', optional: false },
      { key: 'role', optional: false },
      { key: 'tone', optional: true },
    ];
    expect(fillSystem('{role} {tone}|{knowledge}', params, { role: 'Tutor' }, 'K')).toBe('Tutor  |K');
    expect(() => fillSystem('{role}', params, {}, '')).toThrow('Miss parameter: role');
  });
});

describe('assemblePrompt (context budget)', () => {
  it('puts every chunk in when the window is large, with citation instructions', () => {
    const chunks = [chunk(0, 50), chunk(1, 50), chunk(2, 50)];
    const p = assemblePrompt({
      ...base,
      chunks,
      history: [{ role: 'user', content: 'What is word1x3?' }],
      contextTokens: 32_000,
      maxAnswerTokens: 512,
    });
    expect(p.chunkCount).toBe(3);
    expect(p.system).toContain('ID: 2\n├── Title: doc2.txt');
    expect(p.system.endsWith(CITATION_PROMPT)).toBe(true);
    expect(p.messages).toEqual([{ role: 'user', content: 'What is word1x3?' }]);
    expect(p.answerTokens).toBe(512);
  });

  it('keeps only the chunks that fit in the window, in rank order, and stays under it', () => {
    const chunks = Array.from({ length: 20 }, (_, i) => chunk(i, 100));
    const perChunk = countTokens(knowledgeBlock(chunks[0], 0));
    const p = assemblePrompt({
      ...base,
      chunks,
      history: [{ role: 'user', content: 'question?' }],
      contextTokens: 4096,
      maxAnswerTokens: 512,
    });
    expect(p.chunkCount).toBeGreaterThan(3);
    expect(p.chunkCount).toBeLessThan(20);
    expect(p.chunkCount).toBeLessThanOrEqual(Math.floor((4096 * 0.95 - 512) / perChunk));
    expect(p.system).toContain(`ID: ${p.chunkCount - 1}\n`);
    expect(p.system).not.toContain(`ID: ${p.chunkCount}\n`);
    expect(p.usedTokens + 512).toBeLessThanOrEqual(4096);
  });

  it('drops the oldest turns first and starts the history with a user turn', () => {
    const long = 'blah '.repeat(600);
    const history = [
      { role: 'assistant' as const, content: 'Hi! I am your assistant.' },
      { role: 'user' as const, content: `old question ${long}` },
      { role: 'assistant' as const, content: `old answer ${long}` },
      { role: 'user' as const, content: 'recent question' },
      { role: 'assistant' as const, content: '<think>hidden</think>recent answer ##0$$' },
      { role: 'user' as const, content: 'now?' },
    ];
    const p = assemblePrompt({ ...base, chunks: [chunk(0, 10)], history, contextTokens: 1500 });
    expect(p.messages).toEqual([
      { role: 'user', content: 'recent question' },
      { role: 'assistant', content: 'recent answer ' },
      { role: 'user', content: 'now?' },
    ]);
  });

  it('cuts a question longer than the window instead of failing', () => {
    const p = assemblePrompt({
      ...base,
      chunks: [],
      history: [{ role: 'user', content: 'word '.repeat(5000) }],
      contextTokens: 1000,
      maxAnswerTokens: 100,
    });
    expect(countTokens(p.messages[0].content)).toBeLessThan(1000);
    expect(p.usedTokens).toBeLessThanOrEqual(1000);
    expect(p.system).not.toContain('Citations');
  });
});

import { describe, expect, it } from 'vitest';
import { inputElements, inputForm, loadDsl } from '../index.js';
import { dsl } from '../../test/helpers.js';

describe('inputElements (GET /v1/canvas/input_elements)', () => {
  const d = loadDsl(
    dsl([
      { id: 'begin', name: 'begin', downstream: ['Agent:A'] },
      { id: 'Retrieval:R', name: 'Search', params: { query: 'sys.query' } },
      {
        id: 'Agent:A',
        name: 'Writer',
        params: {
          llm_id: 'm',
          sys_prompt: 'Use {Retrieval:R@formalized_content} and {env.tone}',
          prompts: [{ role: 'user', content: '{sys.query}' }],
        },
      },
    ]),
  );

  it('lists each reference a component reads with its display name', () => {
    expect(inputElements(d, 'Agent:A')).toEqual([
      { key: 'Retrieval:R@formalized_content', name: 'Search@formalized_content', type: 'line' },
      { key: 'env.tone', name: 'env.tone', type: 'line' },
      { key: 'sys.query', name: 'sys.query', type: 'line' },
    ]);
    expect(inputElements(d, 'Retrieval:R')).toEqual([{ key: 'sys.query', name: 'sys.query', type: 'line' }]);
    expect(inputForm(d, 'Agent:A')['sys.query']).toEqual({ type: 'line', name: 'sys.query' });
    expect(inputElements(d, 'Nope:X')).toEqual([]);
  });
});

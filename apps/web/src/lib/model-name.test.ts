import { describe, expect, it } from 'vitest';
import { modelLabel } from './model-name';

describe('modelLabel', () => {
  it('shows the name and the factory of a model id', () => {
    expect(modelLabel('text-embedding-3-small@OpenAI')).toBe('text-embedding-3-small (OpenAI)');
    expect(modelLabel('BAAI/bge-m3@user@example@Builtin')).toBe('BAAI/bge-m3@user@example (Builtin)');
  });

  it('keeps an id without a factory', () => {
    expect(modelLabel('bge-small')).toBe('bge-small');
    expect(modelLabel('odd@')).toBe('odd@');
  });
});

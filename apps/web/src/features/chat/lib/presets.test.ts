import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_TOKENS,
  DEFAULT_PRESET,
  DEFAULT_SIMILARITY_THRESHOLD,
  keywordWeightOf,
  PRESET_VALUES,
  presetOf,
  vectorWeightOf,
} from './presets';

describe('freedom presets (API.md §8, SPEC §9)', () => {
  it('have the contract values, precise being the default', () => {
    expect(DEFAULT_PRESET).toBe('precise');
    expect(PRESET_VALUES.improvise).toEqual({
      temperature: 0.8,
      top_p: 0.9,
      frequency_penalty: 0.1,
      presence_penalty: 0.1,
      max_tokens: 4096,
    });
    expect(PRESET_VALUES.precise).toEqual({
      temperature: 0.2,
      top_p: 0.75,
      frequency_penalty: 0.5,
      presence_penalty: 0.5,
      max_tokens: 4096,
    });
    expect(PRESET_VALUES.balance).toEqual({
      temperature: 0.5,
      top_p: 0.85,
      frequency_penalty: 0.3,
      presence_penalty: 0.2,
      max_tokens: 4096,
    });
    expect(DEFAULT_MAX_TOKENS).toBe(512);
    expect(DEFAULT_SIMILARITY_THRESHOLD).toBe(0.2);
  });

  it('are recognized from stored values (max tokens aside), anything else is custom', () => {
    expect(presetOf({ ...PRESET_VALUES.balance, max_tokens: 512 })).toBe('balance');
    expect(presetOf(PRESET_VALUES.improvise)).toBe('improvise');
    expect(presetOf({ temperature: 0.1, top_p: 0.3, frequency_penalty: 0.7, presence_penalty: 0.4 })).toBe(
      'custom',
    );
    expect(presetOf({})).toBe('custom');
  });
});

describe('keyword and vector weights', () => {
  it('always sum to exactly 1.0', () => {
    for (let i = 0; i <= 100; i++) {
      const kw = i / 100;
      const vw = vectorWeightOf(kw);
      expect(Math.round((kw + vw) * 1e9) / 1e9).toBe(1);
      expect(keywordWeightOf(vw)).toBe(kw);
    }
    expect(keywordWeightOf(0.3)).toBe(0.7);
    expect(vectorWeightOf(0.7)).toBe(0.3);
  });
});

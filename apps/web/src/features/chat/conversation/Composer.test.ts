import { describe, expect, it } from 'vitest';
import { sendsOnKey } from './Composer';

const key = (k: string, shiftKey = false, isComposing = false) =>
  ({ key: k, shiftKey, nativeEvent: { isComposing } }) as unknown as Parameters<typeof sendsOnKey>[0];

describe('the question box keys', () => {
  it('sends on Enter, adds a line on Shift+Enter, and waits while an input method composes', () => {
    expect(sendsOnKey(key('Enter'))).toBe(true);
    expect(sendsOnKey(key('Enter', true))).toBe(false);
    expect(sendsOnKey(key('Enter', false, true))).toBe(false);
    expect(sendsOnKey(key('a'))).toBe(false);
  });
});

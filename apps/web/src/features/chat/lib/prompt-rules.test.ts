import { describe, expect, it } from 'vitest';
import { cleanParameters, knowledgeProblem, promptVariables, variableProblems } from './prompt-rules';

describe('prompt variables (SPEC §5)', () => {
  it('finds the {variables} a prompt uses', () => {
    expect(
      promptVariables('Use {knowledge} for {user_name}; {knowledge} again, not { spaced } or {}'),
    ).toEqual(['knowledge', 'user_name']);
  });

  it('requires every required variable in curly braces in the prompt', () => {
    const system = 'Answer {user} from {knowledge}.';
    expect(
      variableProblems(system, [
        { key: 'knowledge', optional: false },
        { key: 'user', optional: false },
      ]),
    ).toEqual([]);
    expect(variableProblems(system, [{ key: 'topic', optional: false }])).toEqual([
      { kind: 'notInPrompt', row: 0, key: 'topic' },
    ]);
    // "topic" written without braces does not count.
    expect(variableProblems('About topic: {knowledge}', [{ key: 'topic', optional: false }])).toHaveLength(1);
    // An optional variable may be left out.
    expect(variableProblems(system, [{ key: 'topic', optional: true }])).toEqual([]);
  });

  it('refuses empty, duplicate and malformed keys', () => {
    const system = '{a} {knowledge}';
    expect(
      variableProblems(system, [
        { key: ' ', optional: true },
        { key: 'a', optional: false },
        { key: 'a', optional: true },
        { key: 'b c', optional: true },
        { key: '{x}', optional: true },
      ]),
    ).toEqual([
      { kind: 'empty', row: 0 },
      { kind: 'duplicate', row: 2, key: 'a' },
      { kind: 'invalid', row: 3, key: 'b c' },
      { kind: 'invalid', row: 4, key: '{x}' },
    ]);
  });

  it('wants {knowledge} with a knowledge source and refuses it without one', () => {
    expect(knowledgeProblem('Use {knowledge}', true)).toBeNull();
    expect(knowledgeProblem('No slot here', true)).toBe('missing');
    expect(knowledgeProblem('Use {knowledge}', false)).toBe('unused');
    expect(knowledgeProblem('Plain chat', false)).toBeNull();
  });

  it('sends trimmed keys and drops empty rows', () => {
    expect(
      cleanParameters([
        { key: ' knowledge ', optional: false },
        { key: '', optional: true },
      ]),
    ).toEqual([{ key: 'knowledge', optional: false }]);
  });
});

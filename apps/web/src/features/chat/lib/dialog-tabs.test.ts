import { describe, expect, it } from 'vitest';
import { errorsPerTab, serverErrorTab, tabOfField } from './dialog-tabs';

describe('assistant dialog errors go to the tab that has them', () => {
  it('maps fields to tabs and counts errors per tab', () => {
    expect(tabOfField('system')).toBe('prompt');
    expect(tabOfField('temperature')).toBe('model');
    expect(tabOfField('kb_ids')).toBe('assistant');
    expect(
      errorsPerTab([
        { name: ['kb_ids'], errors: ['required'] },
        { name: ['system'], errors: ['x'] },
        { name: ['top_n'], errors: ['y'] },
        { name: ['name'], errors: [] },
      ]),
    ).toEqual({ assistant: 1, prompt: 2, model: 0 });
  });

  it('maps the server refusals of dialog/set', () => {
    expect(
      serverErrorTab('Please remove `{knowledge}` in system prompt since no dataset / web search used here.'),
    ).toBe('prompt');
    expect(serverErrorTab("Parameter 'topic' is not used")).toBe('prompt');
    expect(serverErrorTab('Datasets use different embedding models: a@X, b@Y')).toBe('assistant');
    expect(serverErrorTab("Dialog name can't be empty.")).toBe('assistant');
    expect(serverErrorTab('Model(gpt-x) not found')).toBe('model');
  });
});

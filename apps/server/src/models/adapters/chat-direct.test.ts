/** Which chat calls skip streamText, and the provider prompt they send. */
import { describe, expect, it } from 'vitest';
import { isPlainTextCall, plainPrompt } from './chat-direct.js';

describe('chat-direct', () => {
  it('takes text-only calls without tools, and leaves tools, tool turns and images to streamText', () => {
    const text = [
      { role: 'system' as const, content: 'Be terse.' },
      { role: 'user' as const, content: 'Hi' },
      { role: 'assistant' as const, content: 'Hello' },
    ];
    expect(isPlainTextCall(text, {})).toBe(true);
    expect(isPlainTextCall(text, { tools: [] })).toBe(true);
    const tool = { name: 'search', description: 'Search', parameters: { type: 'object' } };
    expect(isPlainTextCall(text, { tools: [tool] })).toBe(false);
    expect(
      isPlainTextCall([{ role: 'user', content: 'x', images: [{ data: 'data:image/png;base64,AA' }] }], {}),
    ).toBe(false);
    expect(isPlainTextCall([{ role: 'tool', content: '42', toolCallId: 'c1', toolName: 'f' }], {})).toBe(
      false,
    );
    expect(
      isPlainTextCall(
        [{ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'f', arguments: {} }] }],
        {},
      ),
    ).toBe(false);
  });

  it('joins the system messages first and keeps the turns in order', () => {
    expect(
      plainPrompt([
        { role: 'system', content: 'One.' },
        { role: 'user', content: 'Q1' },
        { role: 'assistant', content: 'A1' },
        { role: 'system', content: 'Two.' },
        { role: 'user', content: 'Q2' },
      ]),
    ).toEqual([
      { role: 'system', content: 'One.\n\nTwo.' },
      { role: 'user', content: [{ type: 'text', text: 'Q1' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'A1' }] },
      { role: 'user', content: [{ type: 'text', text: 'Q2' }] },
    ]);
    expect(plainPrompt([{ role: 'user', content: 'Q' }])).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Q' }] },
    ]);
  });
});

/**
 * Plain-text chat streamed straight from the provider's language model (`doStream`), without
 * streamText's layers (step and tool machinery, teed and re-piped web streams): for the common
 * call — text messages, no tools, no images — those layers cost about as much CPU as the provider's
 * own parsing of the answer (issue 14: a tenth of an agent run's server CPU). The provider still
 * speaks its real protocol; calls with tools or images keep going through streamText.
 */
import type { LanguageModelUsage } from 'ai';
import type { LanguageModelV3, LanguageModelV3Prompt, LanguageModelV3Usage } from '@ai-sdk/provider';
import type { ChatMessage, ChatOptions } from '../ports.js';

/** The parts of streamText's `fullStream` the chat adapter reads, as the direct path yields them. */
export type TextStreamPart =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | { type: 'error'; error: unknown }
  | { type: 'finish'; totalUsage: ReportedUsage; finishReason: string };

export type ReportedUsage = Pick<LanguageModelUsage, 'inputTokens' | 'outputTokens' | 'totalTokens'>;

/** Whether a call can skip streamText: text only, no tools, no tool turns, no images. */
export function isPlainTextCall(messages: ChatMessage[], options: ChatOptions): boolean {
  if (options.tools?.length) return false;
  return messages.every(
    (m) =>
      (m.role === 'system' || m.role === 'user' || m.role === 'assistant') &&
      !m.images?.length &&
      !m.toolCalls?.length,
  );
}

/** The provider prompt of plain text messages (system messages joined first, as streamText does). */
export function plainPrompt(messages: ChatMessage[]): LanguageModelV3Prompt {
  const system = messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .filter(Boolean)
    .join('\n\n');
  const prompt: LanguageModelV3Prompt = system ? [{ role: 'system', content: system }] : [];
  for (const m of messages) {
    if (m.role === 'user') prompt.push({ role: 'user', content: [{ type: 'text', text: m.content }] });
    else if (m.role === 'assistant')
      prompt.push({ role: 'assistant', content: [{ type: 'text', text: m.content }] });
  }
  return prompt;
}

function reportedUsage(u: LanguageModelV3Usage): ReportedUsage {
  const input = u.inputTokens.total;
  const output = u.outputTokens.total;
  const total = input === undefined && output === undefined ? undefined : (input ?? 0) + (output ?? 0);
  return { inputTokens: input, outputTokens: output, totalTokens: total };
}

export interface DirectCallSettings {
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  stopSequences?: string[];
}

/** One streamed call on the provider model; errors of the request itself are thrown. */
export async function* directTextStream(
  model: LanguageModelV3,
  messages: ChatMessage[],
  settings: DirectCallSettings,
  abortSignal: AbortSignal,
): AsyncIterable<TextStreamPart> {
  const { stream } = await model.doStream({ prompt: plainPrompt(messages), ...settings, abortSignal });
  const reader = stream.getReader();
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      const part = r.value;
      if (part.type === 'text-delta') yield { type: 'text-delta', text: part.delta };
      else if (part.type === 'reasoning-delta') yield { type: 'reasoning-delta', text: part.delta };
      else if (part.type === 'error') yield { type: 'error', error: part.error };
      else if (part.type === 'finish')
        yield {
          type: 'finish',
          totalUsage: reportedUsage(part.usage),
          finishReason: part.finishReason.unified,
        };
    }
  } finally {
    // A consumer that stops early (cancel, error) releases the response.
    await reader.cancel().catch(() => undefined);
  }
}

import { generateText, jsonSchema, streamText, tool, type ModelMessage, type ToolSet } from 'ai';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import {
  backoffMs,
  cancelledError,
  Deadline,
  finalError,
  sleep,
  withRetry,
  type CallPolicy,
} from '../call.js';
import type {
  ChatDelta,
  ChatImage,
  ChatMessage,
  ChatModel,
  ChatOptions,
  ChatResult,
  Image2TextModel,
  TokenUsage,
} from '../ports.js';
import { estimateTokens, type ModelSpec } from '../spec.js';
import { directTextStream, isPlainTextCall, type ReportedUsage } from './chat-direct.js';
import { languageModelOf } from './providers.js';

/** Chat (and vision) through the Vercel AI SDK: streamText / generateText on the provider's language model. */

function imagePart(img: ChatImage) {
  if (typeof img.data !== 'string')
    return { type: 'image' as const, image: img.data, mediaType: img.mimeType };
  const m = /^data:([^;,]+)?(?:;base64)?,(.*)$/s.exec(img.data);
  if (m) return { type: 'image' as const, image: m[2], mediaType: m[1] ?? img.mimeType };
  if (/^https?:\/\//.test(img.data))
    return { type: 'image' as const, image: new URL(img.data), mediaType: img.mimeType };
  return { type: 'image' as const, image: img.data, mediaType: img.mimeType };
}

/** System messages go to the SDK's `system` option (joined); the rest become model messages. */
export function toPrompt(messages: ChatMessage[]): { system: string | undefined; messages: ModelMessage[] } {
  const system = messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .filter(Boolean)
    .join('\n\n');
  const rest = messages
    .filter((m) => m.role !== 'system')
    .map((m): ModelMessage => {
      if (m.role === 'tool')
        return {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: m.toolCallId ?? '',
              toolName: m.toolName ?? '',
              output: { type: 'text', value: m.content },
            },
          ],
        };
      if (m.role === 'assistant' && m.toolCalls?.length)
        return {
          role: 'assistant',
          content: [
            ...(m.content ? [{ type: 'text' as const, text: m.content }] : []),
            ...m.toolCalls.map((c) => ({
              type: 'tool-call' as const,
              toolCallId: c.id,
              toolName: c.name,
              input: typeof c.arguments === 'string' ? parseArguments(c.arguments) : c.arguments,
            })),
          ],
        };
      if (m.role === 'assistant') return { role: 'assistant', content: m.content };
      if (!m.images?.length) return { role: 'user', content: m.content };
      return { role: 'user', content: [{ type: 'text', text: m.content }, ...m.images.map(imagePart)] };
    });
  return { system: system || undefined, messages: rest };
}

/** A call's arguments as an object (the model's JSON text; `{}` when it is not an object). */
function parseArguments(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Declared functions without `execute`: the SDK hands their calls back to us as stream parts. */
function toolSet(tools: ChatOptions['tools']): ToolSet | undefined {
  if (!tools?.length) return undefined;
  return Object.fromEntries(
    tools.map((t) => [
      t.name,
      tool({
        description: t.description,
        inputSchema: jsonSchema(t.parameters as Parameters<typeof jsonSchema>[0]),
      }),
    ]),
  );
}

/** Anthropic needs max_tokens on every request; other providers default it themselves. */
const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/** The sampling settings of a call, as the provider model takes them. */
function callSettings(o: ChatOptions, spec: ModelSpec) {
  return {
    temperature: o.temperature,
    topP: o.topP,
    maxOutputTokens:
      o.maxTokens ?? (spec.factory.protocol === 'anthropic' ? ANTHROPIC_DEFAULT_MAX_TOKENS : undefined),
    presencePenalty: o.presencePenalty,
    frequencyPenalty: o.frequencyPenalty,
    stopSequences: o.stop?.length ? o.stop : undefined,
  };
}

function settings(o: ChatOptions, spec: ModelSpec) {
  // Retries are ours (call.ts): bounded, with backoff, and only before the first delta.
  return { ...callSettings(o, spec), maxRetries: 0 };
}

/** Usage as reported, or estimated from the text when the server reports none. */
export function usageOf(u: ReportedUsage | undefined, messages: ChatMessage[], output: string): TokenUsage {
  const prompt = u?.inputTokens;
  const completion = u?.outputTokens;
  if (prompt === undefined && completion === undefined) {
    const p = estimateTokens(...messages.map((m) => m.content));
    const c = estimateTokens(output);
    return { promptTokens: p, completionTokens: c, totalTokens: p + c };
  }
  const total = u?.totalTokens ?? (prompt ?? 0) + (completion ?? 0);
  return { promptTokens: prompt ?? 0, completionTokens: completion ?? 0, totalTokens: total };
}

export class AiSdkChatModel implements ChatModel {
  readonly kind = 'chat' as const;
  readonly id: string;
  private readonly provider: string;
  private model: LanguageModelV3 | undefined;

  constructor(
    private readonly spec: ModelSpec,
    private readonly policy: CallPolicy,
  ) {
    this.id = spec.id;
    this.provider = spec.factory.name;
  }

  private lm(): LanguageModelV3 {
    this.model ??= languageModelOf(this.spec);
    return this.model;
  }

  private policyFor(o: ChatOptions): CallPolicy {
    return o.timeoutMs ? { ...this.policy, timeoutMs: o.timeoutMs } : this.policy;
  }

  async *stream(messages: ChatMessage[], options: ChatOptions = {}): AsyncIterable<ChatDelta> {
    const policy = this.policyFor(options);
    const model = this.lm();
    for (let attempt = 0; ; attempt++) {
      const deadline = new Deadline(policy.timeoutMs, options.signal);
      let emitted = false;
      let finished = false;
      let output = '';
      try {
        const parts = isPlainTextCall(messages, options)
          ? directTextStream(model, messages, callSettings(options, this.spec), deadline.signal)
          : streamText({
              model,
              ...toPrompt(messages),
              ...settings(options, this.spec),
              tools: toolSet(options.tools),
              abortSignal: deadline.signal,
              onError: () => undefined, // errors arrive as stream parts below; the SDK would also log them
            }).fullStream;
        let usage: ReportedUsage | undefined;
        let finishReason = 'stop';
        for await (const part of parts) {
          deadline.arm(); // the next chunk gets a fresh time limit
          if (part.type === 'text-delta' && part.text) {
            emitted = true;
            output += part.text;
            yield { type: 'text', text: part.text };
          } else if (part.type === 'reasoning-delta' && part.text) {
            emitted = true;
            yield { type: 'reasoning', text: part.text };
          } else if (part.type === 'tool-call') {
            emitted = true;
            const input: unknown = part.input;
            const args =
              input && typeof input === 'object' && !Array.isArray(input)
                ? (input as Record<string, unknown>)
                : typeof input === 'string'
                  ? input
                  : {};
            yield { type: 'tool_call', call: { id: part.toolCallId, name: part.toolName, arguments: args } };
          } else if (part.type === 'error') {
            throw part.error;
          } else if (part.type === 'abort') {
            throw deadline.signal.reason ?? cancelledError(this.provider);
          } else if (part.type === 'finish') {
            usage = part.totalUsage;
            finishReason = part.finishReason;
          }
        }
        if (deadline.timedOut) throw deadline.signal.reason;
        finished = true;
        yield { type: 'done', usage: usageOf(usage, messages, output), finishReason };
        return;
      } catch (err) {
        const e = finalError(this.provider, err, deadline, policy, options.signal);
        if (emitted || !e.retryable || attempt >= policy.retries) {
          throw finalError(this.provider, err, deadline, policy, options.signal, emitted ? 0 : attempt);
        }
        await sleep(backoffMs(attempt, policy, e.retryAfterMs), options.signal).catch(() => {
          throw cancelledError(this.provider);
        });
      } finally {
        if (!finished) deadline.cancel();
        deadline.clear();
      }
    }
  }

  async complete(messages: ChatMessage[], options: ChatOptions = {}): Promise<ChatResult> {
    const model = this.lm();
    return withRetry(this.provider, this.policyFor(options), options.signal, async (signal) => {
      const r = await generateText({
        model,
        ...toPrompt(messages),
        ...settings(options, this.spec),
        abortSignal: signal,
      });
      return {
        text: r.text,
        reasoning: r.reasoningText ?? '',
        usage: usageOf(r.totalUsage, messages, r.text),
        finishReason: r.finishReason,
      };
    });
  }
}

export const DEFAULT_DESCRIBE_PROMPT =
  'Describe the content of this image in detail: the objects, people, text, tables and charts it shows, and what it is about.';

/** A vision model: describes images, and is also usable as a chat model. */
export class AiSdkImage2TextModel implements Image2TextModel {
  readonly kind = 'image2text' as const;
  readonly id: string;
  private readonly chatModel: AiSdkChatModel;

  constructor(spec: ModelSpec, policy: CallPolicy) {
    this.id = spec.id;
    this.chatModel = new AiSdkChatModel(spec, policy);
  }

  describe(
    image: ChatImage,
    prompt = DEFAULT_DESCRIBE_PROMPT,
    options: ChatOptions = {},
  ): Promise<ChatResult> {
    return this.chatModel.complete([{ role: 'user', content: prompt, images: [image] }], options);
  }

  chat(): ChatModel {
    return this.chatModel;
  }
}

import { experimental_generateSpeech as generateSpeech, experimental_transcribe as transcribe } from 'ai';
import { withRetry, type CallPolicy } from '../call.js';
import type { CallOptions, Speech2TextModel, TtsModel } from '../ports.js';
import { estimateTokens, type ModelSpec } from '../spec.js';
import { audioProviderOf } from './providers.js';

/** Speech-to-text and text-to-speech through the AI SDK's OpenAI-shaped audio models (/audio/transcriptions, /audio/speech). */

export class AiSdkSpeech2TextModel implements Speech2TextModel {
  readonly kind = 'speech2text' as const;
  readonly id: string;

  constructor(
    private readonly spec: ModelSpec,
    private readonly policy: CallPolicy,
  ) {
    this.id = spec.id;
  }

  async transcribe(audio: Uint8Array, options: CallOptions & { mimeType?: string; language?: string } = {}) {
    const model = audioProviderOf(this.spec).transcription(this.spec.callName);
    const policy = options.timeoutMs ? { ...this.policy, timeoutMs: options.timeoutMs } : this.policy;
    const text = await withRetry(this.spec.factory.name, policy, options.signal, async (signal) => {
      const r = await transcribe({
        model,
        audio,
        maxRetries: 0,
        abortSignal: signal,
        providerOptions: options.language ? { openai: { language: options.language } } : undefined,
      });
      return r.text;
    });
    return { text, usage: { tokens: estimateTokens(text) } };
  }
}

export class AiSdkTtsModel implements TtsModel {
  readonly kind = 'tts' as const;
  readonly id: string;

  constructor(
    private readonly spec: ModelSpec,
    private readonly policy: CallPolicy,
  ) {
    this.id = spec.id;
  }

  async speak(text: string, options: CallOptions & { voice?: string; format?: string } = {}) {
    const model = audioProviderOf(this.spec).speech(this.spec.callName);
    const policy = options.timeoutMs ? { ...this.policy, timeoutMs: options.timeoutMs } : this.policy;
    const audio = await withRetry(this.spec.factory.name, policy, options.signal, async (signal) => {
      const r = await generateSpeech({
        model,
        text,
        voice: options.voice ?? 'alloy',
        outputFormat: options.format ?? 'mp3',
        maxRetries: 0,
        abortSignal: signal,
      });
      return r.audio;
    });
    return { audio: audio.uint8Array, mimeType: audio.mediaType, usage: { tokens: estimateTokens(text) } };
  }
}

import type { ModelType } from '@lectern/shared';
import type { AppContext } from '../context.js';
import { policyFromConfig } from './call.js';
import { buildModel } from './registry.js';
import type { ModelSpec } from './spec.js';

/**
 * Key checks of set_api_key / add_llm: one real, small call per model (embedding: one sentence; chat:
 * one short message; rerank: one pair; tts: one word; speech-to-text: half a second of silence), under
 * the verify time limit (MODEL_VERIFY_TIMEOUT_MS, 10 s by default) and without retries.
 * Returns null on success, else the provider's readable reason.
 */
export async function probeModel(ctx: AppContext, spec: ModelSpec, type: ModelType): Promise<string | null> {
  const policy = policyFromConfig(ctx.config, { timeoutMs: ctx.config.modelVerifyTimeoutMs, retries: 0 });
  try {
    const model = buildModel(ctx, spec, type === 'image2text' ? 'chat' : type, policy);
    switch (model.kind) {
      case 'chat':
        await model.complete([{ role: 'user', content: 'Hello! How are you doing!' }], {
          temperature: 0.9,
          maxTokens: 50,
        });
        return null;
      case 'embedding': {
        const r = await model.embed(['Test if the api key is available']);
        return r.vectors[0]?.length ? null : 'the model returned an empty vector';
      }
      case 'rerank':
        await model.rerank('What is the capital of France?', ['Paris is the capital of France.']);
        return null;
      case 'tts':
        await model.speak('Hello');
        return null;
      case 'speech2text':
        await model.transcribe(silentWav(0.5), { mimeType: 'audio/wav' });
        return null;
      default:
        return null;
    }
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** A mono 16 kHz 16-bit PCM WAV of silence. */
export function silentWav(seconds: number): Uint8Array {
  const rate = 16_000;
  const samples = Math.round(rate * seconds);
  const buf = Buffer.alloc(44 + samples * 2);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(36 + samples * 2, 4);
  buf.write('WAVEfmt ', 8);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(samples * 2, 40);
  return new Uint8Array(buf);
}

/** The probe group a model belongs to for set_api_key: one success in any group is enough. */
export function probeGroup(type: string): 'chat' | 'embedding' | 'rerank' | null {
  if (type === 'chat' || type === 'image2text') return 'chat';
  if (type === 'embedding' || type === 'rerank') return type;
  return null;
}

/**
 * Text to speech for answers (prompt_config.tts) and `/v1/conversation/tts`: text is cut on
 * punctuation and newlines and each piece synthesized with the tenant's TTS model. Streaming answers
 * speak whole sentences as they complete, so each delta event carries the audio of what it finished.
 */
import type { TtsModel } from '../models/ports.js';

/** Pieces of text to synthesize, cut on Chinese/Latin punctuation and line breaks. */
export function ttsPieces(text: string): string[] {
  return text
    .split(/[，。/《》？；：！\n\r:;!?]+/)
    .map((p) => p.trim())
    .filter((p) => /[\p{L}\p{N}]/u.test(p));
}

/** Strips what should not be read aloud: citations, reasoning, markdown markers. */
function speakable(text: string): string {
  return text
    .replace(/<think>[\s\S]*?<\/think>/g, '')
    .replace(/\[ID:\d+\]/g, '')
    .replace(/[#*_`>|]+/g, ' ');
}

export async function synthesize(tts: TtsModel, text: string, signal?: AbortSignal): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for (const piece of ttsPieces(speakable(text))) parts.push((await tts.speak(piece, { signal })).audio);
  return Buffer.concat(parts);
}

export class SentenceSpeaker {
  private buffer = '';

  constructor(
    private readonly tts: TtsModel,
    private readonly signal?: AbortSignal,
  ) {}

  /** Adds answer text; returns hex audio of the sentences it completed, or null. */
  async push(text: string): Promise<string | null> {
    this.buffer += text;
    const cut = Math.max(
      ...['。', '！', '？', '\n', '. ', '! ', '? '].map((p) => this.buffer.lastIndexOf(p)),
    );
    if (cut < 0) return null;
    const ready = this.buffer.slice(0, cut + 1);
    this.buffer = this.buffer.slice(cut + 1);
    return this.speakAll(ready);
  }

  async flush(): Promise<string | null> {
    const rest = this.buffer;
    this.buffer = '';
    return this.speakAll(rest);
  }

  /** Hex of the synthesized audio, null when there is nothing to say or synthesis fails. */
  async speakAll(text: string): Promise<string | null> {
    try {
      const audio = await synthesize(this.tts, text, this.signal);
      return audio.length > 0 ? Buffer.from(audio).toString('hex') : null;
    } catch {
      // A failed synthesis must not break the answer; the text still arrives.
      return null;
    }
  }
}

/**
 * Reasoning kept apart from the answer: provider reasoning deltas, or inline `<think>…</think>` in
 * the text (tags may be split across deltas), become think markers and think text (§6.1, §7.2).
 */
import type { StreamItem } from '../runtime/text-stream.js';

const OPEN = '<think>';
const CLOSE = '</think>';

/** Length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialTag(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--)
    if (tag.startsWith(text.slice(-n))) return n;
  return 0;
}

export class ThinkSplitter {
  private thinking: 'none' | 'provider' | 'inline' = 'none';
  private pending = '';

  reasoning(text: string): StreamItem[] {
    if (!text) return [];
    const out: StreamItem[] = [];
    if (this.thinking === 'none') {
      this.thinking = 'provider';
      out.push({ kind: 'think_start' });
    }
    out.push({ kind: 'think', text });
    return out;
  }

  text(delta: string): StreamItem[] {
    const out: StreamItem[] = [];
    if (this.thinking === 'provider' && delta) {
      this.thinking = 'none';
      out.push({ kind: 'think_end' });
    }
    let text = this.pending + delta;
    this.pending = '';
    while (text) {
      if (this.thinking === 'inline') {
        const at = text.indexOf(CLOSE);
        if (at < 0) {
          const keep = partialTag(text, CLOSE);
          if (text.length > keep) out.push({ kind: 'think', text: text.slice(0, text.length - keep) });
          this.pending = text.slice(text.length - keep);
          return out;
        }
        if (at > 0) out.push({ kind: 'think', text: text.slice(0, at) });
        out.push({ kind: 'think_end' });
        this.thinking = 'none';
        text = text.slice(at + CLOSE.length);
        continue;
      }
      const at = text.indexOf(OPEN);
      if (at < 0) {
        const keep = partialTag(text, OPEN);
        if (text.length > keep) out.push({ kind: 'text', text: text.slice(0, text.length - keep) });
        this.pending = text.slice(text.length - keep);
        return out;
      }
      if (at > 0) out.push({ kind: 'text', text: text.slice(0, at) });
      out.push({ kind: 'think_start' });
      this.thinking = 'inline';
      text = text.slice(at + OPEN.length);
    }
    return out;
  }

  /** Flush what is held back at the end of the stream. */
  end(): StreamItem[] {
    const out: StreamItem[] = [];
    if (this.pending) out.push({ kind: this.thinking === 'inline' ? 'think' : 'text', text: this.pending });
    this.pending = '';
    if (this.thinking !== 'none') out.push({ kind: 'think_end' });
    this.thinking = 'none';
    return out;
  }
}

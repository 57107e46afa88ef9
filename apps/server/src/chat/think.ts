/**
 * Reasoning ("thinking") kept apart from the answer (API.md §9): the client gets a
 * `start_to_think` marker, the reasoning text as ordinary deltas, then `end_to_think`, then the
 * answer. Reasoning arrives either as separate reasoning deltas from the provider adapter, or
 * inline as `<think>…</think>` in the text (tags may be split across deltas).
 */

export type ModelPart = { type: 'text' | 'reasoning'; text: string };

export type ThinkOut =
  { kind: 'start' } | { kind: 'end' } | { kind: 'text'; text: string; thinking: boolean };

const OPEN = '<think>';
const CLOSE = '</think>';

/** Length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialTagAt(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (tag.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}

export class ThinkSplitter {
  /** Where the current reasoning block came from: provider reasoning deltas or inline tags. */
  private mode: 'none' | 'provider' | 'inline' = 'none';
  private sawAnswer = false;
  private pending = '';
  reasoning = '';
  answer = '';

  push(part: ModelPart): ThinkOut[] {
    const out: ThinkOut[] = [];
    if (part.type === 'reasoning') {
      if (!part.text) return out;
      if (this.mode === 'none') {
        this.mode = 'provider';
        out.push({ kind: 'start' });
      }
      this.reasoning += part.text;
      out.push({ kind: 'text', text: part.text, thinking: true });
      return out;
    }
    if (this.mode === 'provider' && part.text) {
      // Provider reasoning ends when the first answer text arrives.
      this.mode = 'none';
      out.push({ kind: 'end' });
    }
    let text = this.pending + part.text;
    this.pending = '';
    while (text.length > 0) {
      const inside = this.mode === 'inline';
      const tag = inside ? CLOSE : OPEN;
      const at = text.indexOf(tag);
      // An opening tag only counts before any answer text (models put reasoning first).
      const usable = at >= 0 && (inside || (!this.sawAnswer && text.slice(0, at).trim() === ''));
      if (usable) {
        this.emit(out, text.slice(0, at));
        this.mode = inside ? 'none' : 'inline';
        out.push({ kind: inside ? 'end' : 'start' });
        text = text.slice(at + tag.length);
        continue;
      }
      const keep = inside || !this.sawAnswer ? partialTagAt(text, tag) : 0;
      this.emit(out, text.slice(0, text.length - keep));
      this.pending = text.slice(text.length - keep);
      break;
    }
    return out;
  }

  /** Flushes a held-back partial tag and closes an unterminated reasoning block. */
  finish(): ThinkOut[] {
    const out: ThinkOut[] = [];
    if (this.pending) {
      this.emit(out, this.pending);
      this.pending = '';
    }
    if (this.mode !== 'none') {
      this.mode = 'none';
      out.push({ kind: 'end' });
    }
    return out;
  }

  private emit(out: ThinkOut[], text: string): void {
    if (!text) return;
    const thinking = this.mode !== 'none';
    if (thinking) {
      this.reasoning += text;
    } else {
      if (text.trim()) this.sawAnswer = true;
      this.answer += text;
    }
    out.push({ kind: 'text', text, thinking });
  }
}

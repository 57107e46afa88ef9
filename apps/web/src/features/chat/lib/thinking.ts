/**
 * Reasoning models think before they answer; the stored answer keeps that as `<think>…</think>` in
 * front of the answer (API.md §9 markers). The view shows it apart, collapsible.
 */
export interface SplitAnswer {
  /** The reasoning text, or null when there is none. */
  thinking: string | null;
  /** True while `<think>` is open (the model is still thinking). */
  thinkingOpen: boolean;
  answer: string;
}

export function splitThinking(content: string): SplitAnswer {
  const start = content.indexOf('<think>');
  if (start < 0) return { thinking: null, thinkingOpen: false, answer: content };
  const before = content.slice(0, start);
  const rest = content.slice(start + '<think>'.length);
  const end = rest.indexOf('</think>');
  if (end < 0) return { thinking: rest.trim(), thinkingOpen: true, answer: before.trim() };
  return {
    thinking: rest.slice(0, end).trim(),
    thinkingOpen: false,
    answer: (before + rest.slice(end + '</think>'.length)).trim(),
  };
}

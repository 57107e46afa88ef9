/**
 * Conversation state rules (API.md §9), pure: which messages a completion answers, how an answer
 * lands in `message`/`reference` (a repeated completion for the same message id replaces the last
 * answer — regenerate), deleting a question with its answer, thumbs up/down.
 * `reference` holds one entry per assistant answer that follows a user message (the opening
 * greeting has none).
 */
import type { ChatMessage, StoredReference } from './types.js';

export const EMPTY_REFERENCE: StoredReference = { chunks: [], doc_aggs: [] };

/** The messages a completion answers: system messages and leading assistant messages dropped. */
export function questionMessages(messages: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    if (m.role === 'system') continue;
    if (m.role === 'assistant' && out.length === 0) continue;
    out.push(m);
  }
  return out;
}

/** Index of each message's reference entry: answers after the first user message, in order. */
function answerSlots(messages: ChatMessage[]): Map<number, number> {
  const slots = new Map<number, number>();
  let seenUser = false;
  let n = 0;
  messages.forEach((m, i) => {
    if (m.role === 'user') seenUser = true;
    else if (m.role === 'assistant' && seenUser) slots.set(i, n++);
  });
  return slots;
}

/**
 * The conversation after an answer: the request's messages followed by the new answer; stored
 * references of the answers the request still contains are kept (by position), the new one added.
 */
export function withAnswer(
  requestMessages: ChatMessage[],
  storedReference: unknown[],
  answer: ChatMessage,
  reference: StoredReference,
): { message: ChatMessage[]; reference: unknown[] } {
  const asked = withQuestion(requestMessages, storedReference);
  return { message: [...asked.message, answer], reference: [...asked.reference, reference] };
}

/**
 * The conversation while its last question is being answered: the request's messages, with the
 * stored references of the answers they still contain (the new answer's entry comes with it).
 */
export function withQuestion(
  requestMessages: ChatMessage[],
  storedReference: unknown[],
): { message: ChatMessage[]; reference: unknown[] } {
  const kept = answerSlots(requestMessages).size;
  const refs: unknown[] = storedReference.filter((r) => r !== null && r !== undefined).slice(0, kept);
  while (refs.length < kept) refs.push({ ...EMPTY_REFERENCE });
  return { message: requestMessages, reference: refs };
}

/** Removes the user message `id` and the assistant answer right after it, with its reference. */
export function deleteMessage(
  messages: ChatMessage[],
  reference: unknown[],
  id: string,
): { message: ChatMessage[]; reference: unknown[] } {
  const i = messages.findIndex((m) => m.role === 'user' && m.id === id);
  if (i < 0) return { message: messages, reference };
  const slots = answerSlots(messages);
  const next = messages[i + 1];
  const removeAnswer = next && next.role === 'assistant' && (next.id === undefined || next.id === id);
  const message = messages.filter((_, k) => k !== i && !(removeAnswer && k === i + 1));
  const slot = removeAnswer ? slots.get(i + 1) : undefined;
  return { message, reference: slot === undefined ? reference : reference.filter((_, k) => k !== slot) };
}

/** Marks the assistant answer `id`: thumbs up clears feedback, thumbs down keeps the feedback given. */
export function thumbMessage(messages: ChatMessage[], id: string, up: boolean, feedback?: string | null) {
  let changed: ChatMessage | undefined;
  const message = messages.map((m) => {
    if (changed || m.role !== 'assistant' || m.id !== id) return m;
    const next: ChatMessage = { ...m, thumbup: up };
    if (up) delete next.feedback;
    else if (feedback) next.feedback = feedback;
    changed = next;
    return next;
  });
  return { message, changed };
}

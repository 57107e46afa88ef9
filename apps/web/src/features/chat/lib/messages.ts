import type { ChatMessage, Conversation, Reference } from '@lectern/shared';
import { EMPTY_REFERENCE, toReference } from './answer-stream';

/**
 * Conversation rules the view needs (API.md §9): `reference` holds one entry per answer that follows
 * a user message (the opening greeting has none); a completion sends the whole history and answers its
 * last message; regenerating sends the history up to the question again, with the same message id.
 */

/** A 32-hex id (API.md §1.8), for new messages and conversations. */
export function newId(): string {
  return crypto.randomUUID().replace(/-/g, '');
}

/** message index → index of its entry in `reference`. */
export function referenceSlots(messages: readonly ChatMessage[]): Map<number, number> {
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
 * The reference of the message at `index` (empty for the greeting, questions and old entries).
 * Entries are read defensively: stored conversations may hold empty or malformed ones.
 */
export function referenceAt(
  conversation: Pick<Conversation, 'message'> & { reference: readonly unknown[] },
  index: number,
): Reference {
  const slot = referenceSlots(conversation.message).get(index);
  return slot === undefined ? EMPTY_REFERENCE : toReference(conversation.reference[slot]);
}

/** The messages a new question sends: the history (greeting included, the server drops it) + the question. */
export function withQuestion(
  history: readonly ChatMessage[],
  content: string,
  id: string = newId(),
): ChatMessage[] {
  return [...history, { role: 'user', content, id }];
}

/**
 * The messages that regenerate the answer at `index`: everything before it, ending with its question
 * (same id). Null when the message is not an answer to a question.
 */
export function regenerateRequest(messages: readonly ChatMessage[], index: number): ChatMessage[] | null {
  const answer = messages[index];
  const question = messages[index - 1];
  if (!answer || answer.role !== 'assistant' || !question || question.role !== 'user') return null;
  return messages.slice(0, index);
}

/** Index of the last answer that follows a question (the one "regenerate" is offered on). */
export function lastAnswerIndex(messages: readonly ChatMessage[]): number {
  for (let i = messages.length - 1; i > 0; i--) {
    if (messages[i].role === 'assistant' && messages[i - 1].role === 'user') return i;
    if (messages[i].role === 'user') return -1;
  }
  return -1;
}

/** A short conversation name from its first question. */
export function nameFromQuestion(question: string, max = 60): string {
  const flat = question.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`;
}

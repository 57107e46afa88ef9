/**
 * Which failures reach the client with their own words: model errors (already readable, e.g.
 * "OpenAI: 401 Unauthorized — …"), contract refusals, retrieval parameter errors and the chat
 * pipeline's own errors. Anything else (a database or engine fault) gets a plain sentence; its
 * details go to the server log, never to the client.
 */
import { ApiError } from '../errors.js';
import { ModelError } from '../models/errors.js';
import { RetrievalParamError } from '../search/retrieval.js';

/** An error the chat pipeline raises on purpose, with a message meant for the user. */
export class ChatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChatError';
  }
}

export const GENERIC_FAILURE = 'Something went wrong while answering. Please try again.';

export function isReadable(err: unknown): err is Error {
  return (
    err instanceof ChatError ||
    err instanceof ModelError ||
    err instanceof ApiError ||
    err instanceof RetrievalParamError
  );
}

export function readableMessage(err: unknown): string {
  return isReadable(err) && err.message ? err.message : GENERIC_FAILURE;
}

/**
 * A parser's refusal of its input: the message is shown to people as the document's failure reason,
 * so it must be a complete, readable sentence (no stack traces, no library jargon).
 */
export class ParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ParseError';
  }
}

/** True when `err` is a ParseError (also across worker-thread boundaries, where only the name survives). */
export function isParseError(err: unknown): err is ParseError {
  return err instanceof ParseError || (err instanceof Error && err.name === 'ParseError');
}

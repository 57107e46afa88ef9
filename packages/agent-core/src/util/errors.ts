/** Thrown inside a component when the run was cancelled (AGENTS.md §3.11). */
export class CancelledError extends Error {
  constructor() {
    super('Task has been canceled');
    this.name = 'CancelledError';
  }
}

export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  return String(e);
}

export function isAbortError(e: unknown): boolean {
  return (
    e instanceof CancelledError ||
    (e instanceof Error && (e.name === 'AbortError' || e.name === 'CancelledError'))
  );
}

/**
 * Why an outbound request was refused or failed, as one error type with a kind the caller can map
 * (a route answers 101 for a refusal, a model adapter retries a network failure) and a sentence a
 * person can act on.
 */
export type OutboundErrorKind =
  | 'invalid_url'
  | 'unsupported_protocol'
  | 'blocked'
  | 'dns'
  | 'too_many_redirects'
  | 'too_large'
  | 'timeout'
  | 'network';

export class OutboundError extends Error {
  /** host[:port] of the request, when known. */
  readonly host: string | undefined;
  /** The system error code of a network failure (ECONNREFUSED, ECONNRESET…). */
  readonly code: string | undefined;

  constructor(
    readonly kind: OutboundErrorKind,
    message: string,
    options?: { cause?: unknown; host?: string; code?: string },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'OutboundError';
    this.host = options?.host;
    this.code = options?.code;
  }

  /** The request was refused by policy (address, scheme, redirects, size), not a failure of the far side. */
  get refused(): boolean {
    return ['invalid_url', 'unsupported_protocol', 'blocked', 'too_many_redirects', 'too_large'].includes(
      this.kind,
    );
  }
}

export function isOutboundError(err: unknown): err is OutboundError {
  return err instanceof OutboundError;
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 * 1024) return `${+(n / 1024 ** 3).toFixed(1)} GB`;
  if (n >= 1024 * 1024) return `${+(n / 1024 ** 2).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}

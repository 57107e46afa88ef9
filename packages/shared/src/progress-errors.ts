/**
 * Free-form error text in progress-log lines (issue 11 item 12, "the parse log is translated"): a
 * parser's, library's or model provider's own error text cannot be translated, but most failures fall
 * into a few known classes. Those become a catalogued sentence (translated by the client like every
 * other log message) and the raw text survives only as a short `[detail]` suffix, for support.
 * Text of no known class stays as written.
 */

/** The catalogued sentence of each class (merged into PROGRESS_MESSAGES). */
export const ERROR_CLASS_MESSAGES = {
  errorOutOfMemory: 'The server ran out of memory while working on it. [{{detail}}]',
  errorPasswordProtected:
    'The file is protected by a password; remove the password and upload it again. [{{detail}}]',
  errorProviderAuth:
    'The model provider refused the credentials (HTTP 401/403): check the API key in the model settings. [{{detail}}]',
  errorProviderRateLimit:
    'The model provider is limiting requests (HTTP 429): wait a moment and run it again. [{{detail}}]',
  errorProviderServer: 'The model provider had a server error (HTTP 5xx): try again later. [{{detail}}]',
  errorTimeout: 'The operation took too long and was stopped. [{{detail}}]',
  errorUnreachable: 'The service could not be reached (connection refused or host unreachable). [{{detail}}]',
  errorUnsupportedFile: 'This file type or format variant is not supported. [{{detail}}]',
  errorCorruptFile: 'The file is damaged or not in the format its name says. [{{detail}}]',
} as const;

export type ErrorClassKey = keyof typeof ERROR_CLASS_MESSAGES;

/** Most specific first: a 504 "gateway timeout" is a provider server error, not a plain timeout. */
const CLASSES: Array<[ErrorClassKey, RegExp]> = [
  [
    'errorOutOfMemory',
    /out of memory|more memory|\bENOMEM\b|heap limit|allocation failed|ERR_WORKER_OUT_OF_MEMORY/i,
  ],
  [
    'errorPasswordProtected',
    /PasswordException|password[- ]protected|encrypted with a password|needs a password/i,
  ],
  [
    'errorProviderAuth',
    /\b(?:status(?: code)?:? ?|HTTP\/?[\d.]* ?)(?:401|403)\b|^(?:401|403)\b|\bunauthori[sz]ed\b|\bforbidden\b|invalid(?: x-)?[ _-]?api[ _-]?key|incorrect api key|authentication (?:failed|error)/i,
  ],
  [
    'errorProviderRateLimit',
    /\b(?:status(?: code)?:? ?|HTTP\/?[\d.]* ?)429\b|^429\b|too many requests|rate[ _-]?limit|quota exceeded|insufficient_quota/i,
  ],
  [
    'errorProviderServer',
    /\b(?:status(?: code)?:? ?|HTTP\/?[\d.]* ?)5\d\d\b|^5\d\d\b|internal server error|bad gateway|service unavailable|gateway time-?out|\boverloaded\b/i,
  ],
  [
    'errorTimeout',
    /timed? ?out|took longer than|\bETIMEDOUT\b|\bESOCKETTIMEDOUT\b|\btimeout\b|deadline exceeded|AbortError/i,
  ],
  [
    'errorUnreachable',
    /\bECONNREFUSED\b|\bENOTFOUND\b|\bEHOSTUNREACH\b|\bENETUNREACH\b|\bECONNRESET\b|\bEAI_AGAIN\b|fetch failed|socket hang up|connection refused|getaddrinfo|could not connect|\bunreachable\b/i,
  ],
  ['errorUnsupportedFile', /\bunsupported\b|not supported|unknown file type|no parser for/i],
  [
    'errorCorruptFile',
    /corrupt|\bdamaged\b|malformed|\btruncated\b|invalid (?:pdf|zip|file|xref|signature)|end of central directory|bad xref|not a valid|FormatError|InvalidPDFException/i,
  ],
];

const DETAIL_MAX = 80;

/** The raw text as a one-line suffix of at most DETAIL_MAX characters. */
export function errorDetail(raw: string): string {
  const line = raw.split('\n')[0].replace(/\s+/g, ' ').trim();
  // Square brackets would end the suffix early for a reader (and a `[Canceled]` would read as a mark).
  const plain = line.replace(/[[\]]/g, "'");
  return plain.length > DETAIL_MAX ? `${plain.slice(0, DETAIL_MAX - 1)}…` : plain;
}

/** The known class of an error text, or null. */
export function errorClassOf(raw: string): ErrorClassKey | null {
  for (const [key, pattern] of CLASSES) if (pattern.test(raw)) return key;
  return null;
}

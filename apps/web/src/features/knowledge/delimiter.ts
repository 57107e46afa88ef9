/**
 * Delimiters hold control characters (the default is a newline). A text box cannot show them, so the
 * form shows `\n` and `\t` as escapes and turns them back on the way out.
 */

export function showDelimiter(value: string | undefined | null): string {
  return (value ?? '')
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n')
    .replace(/\t/g, '\\t')
    .replace(/\r/g, '\\r');
}

export function readDelimiter(text: string): string {
  return text.replace(/\\(\\|n|t|r)/g, (_, c: string) =>
    c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '\r' : '\\',
  );
}

import type { TFunction } from 'i18next';
import { matchProgressMessage, splitProgressLine } from '@lectern/shared';

/**
 * Progress-log lines in the user's language. The server writes its log in English from the catalogue
 * of `@lectern/shared` (progress-messages.ts); each line is recognized there and shown as the
 * translation of its key (`progress.msg.<key>`) with the same params. A line the catalogue does not
 * know (a parser's own error, a model's answer) is shown as sent.
 */

/** Params that may hold another catalogued message (a failure wrapping a failure). */
const NESTED_PARAMS = ['error'];
const MAX_NESTING = 3;

/** One message (no time, page range or marks) in the user's language; unknown text as it is. */
export function translateProgressMessage(message: string, t: TFunction, depth = 0): string {
  const matched = matchProgressMessage(message);
  if (!matched) return message;
  const params: Record<string, string | number> = { ...matched.params };
  if (depth < MAX_NESTING) {
    for (const name of NESTED_PARAMS) {
      const value = matched.params[name];
      if (value !== undefined) params[name] = translateProgressMessage(value, t, depth + 1);
    }
  }
  // i18next reads `count` as a number (plural forms); the other params are shown as written.
  if (typeof params.count === 'string' && /^\d+$/.test(params.count)) params.count = Number(params.count);
  return t(`progress.msg.${matched.key}`, params);
}

/** One log line (its `HH:MM:SS` may be there or not) in the user's language, without the time. */
export function translateProgressLine(line: string, t: TFunction): string {
  const parts = splitProgressLine(line);
  const pieces = [
    parts.page ? t('progress.page', parts.page) : '',
    parts.error ? t('progress.error') : '',
    translateProgressMessage(parts.message, t),
    parts.canceled ? t('progress.canceled') : '',
  ];
  return pieces.filter((p) => p.length > 0).join(' ');
}

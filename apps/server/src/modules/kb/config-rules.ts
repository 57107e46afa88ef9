/**
 * The KB/document answer for broken parsing settings: the first message of `validateParserConfig`
 * (API.md §19.6, SPEC §5). Absent required values answer 101 like every missing argument; unusable
 * values (bounds, types, page order) answer 100 with the field named (API.md §1.5).
 */
import { RetCode } from '@lectern/shared';
import { ApiError } from '../../http/envelope.js';
import { validateParserConfig } from '../../ingest/parser-config.js';

const REQUIRED = /required|^Missing |^Please input/i;

export function assertParserConfig(parserId: string, config: unknown): void {
  const [first] = validateParserConfig(config, parserId);
  if (first === undefined) return;
  throw new ApiError(REQUIRED.test(first) ? RetCode.ARGUMENT_ERROR : RetCode.EXCEPTION_ERROR, first);
}

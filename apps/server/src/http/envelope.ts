import { RetCode, type Envelope } from '@lectern/shared';

/** Lower layers throw these; routes see them through this module too. */
export { ApiError, errors } from '../errors.js';

export function ok<T>(data: T, message = 'success'): Envelope<T> {
  return { code: RetCode.SUCCESS, message, data };
}

import { RetCode } from '@lectern/shared';

/** A failure that reaches the client as an envelope (never as a stack trace). */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown = undefined,
    readonly httpStatus = 200,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Shorthands for the recurring refusals of API.md §1.6. */
export const errors = {
  argument: (message: string, data?: unknown) => new ApiError(RetCode.ARGUMENT_ERROR, message, data),
  data: (message: string, data?: unknown) => new ApiError(RetCode.DATA_ERROR, message, data),
  operating: (message: string, data?: unknown) => new ApiError(RetCode.OPERATING_ERROR, message, data),
  auth: (message: string, data?: unknown) => new ApiError(RetCode.AUTHENTICATION_ERROR, message, data),
  exception: (message: string, data?: unknown) => new ApiError(RetCode.EXCEPTION_ERROR, message, data),
  noAuthorization: () => new ApiError(RetCode.AUTHENTICATION_ERROR, 'No authorization.', false),
};

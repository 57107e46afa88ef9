/** Envelope codes of API.md §1.3. */
export const RetCode = {
  SUCCESS: 0,
  NOT_EFFECTIVE: 10,
  EXCEPTION_ERROR: 100,
  ARGUMENT_ERROR: 101,
  DATA_ERROR: 102,
  OPERATING_ERROR: 103,
  CONNECTION_ERROR: 105,
  RUNNING: 106,
  PERMISSION_ERROR: 108,
  AUTHENTICATION_ERROR: 109,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  SERVER_ERROR: 500,
  /** Client-side only: a request that got no response at all. */
  NETWORK_FAILURE: 1999,
} as const;
export type RetCode = (typeof RetCode)[keyof typeof RetCode];

/** The JSON envelope every /v1 answer uses. */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data?: T | null;
}

/** Exact body of HTTP 401 for a missing or invalid credential (API.md §1.4). */
export const UNAUTHORIZED_BODY = {
  code: 401,
  message: "<Unauthorized '401: Unauthorized'>",
  data: null,
} as const;

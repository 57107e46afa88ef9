import crypto from 'node:crypto';

/** 32 lowercase hex characters: a random UUID without dashes (API.md §1.8). */
export function newId(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

export function isId(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{32}$/.test(value);
}

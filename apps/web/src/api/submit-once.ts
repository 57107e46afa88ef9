import { useCallback, useRef, useState } from 'react';
import type { ApiResult } from './request';

/** A fresh `Idempotency-Key` (README "Idempotent requests"): 32 random hex digits. */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * How long after a success a further submit is still taken for the second click of a double-click
 * (desktop double-click intervals are ≤ 500 ms): a fast server can answer the first click before the
 * second one arrives.
 */
export const DOUBLE_CLICK_MS = 500;

/**
 * One submit at a time for a form or button that creates something: while a submit is in flight, and
 * for a double-click's interval after it succeeded, further ones are dropped (a double-click, Enter
 * pressed twice), and every attempt of one intent carries the same `Idempotency-Key`, renewed after a
 * success — so even a repeat that reaches the server (a retry after a lost answer) creates nothing twice.
 */
export function useSubmitOnce() {
  const busy = useRef(false);
  const succeededAt = useRef(-Infinity);
  const key = useRef(newIdempotencyKey());
  const [pending, setPending] = useState(false);
  const run = useCallback(
    async <T>(submit: (idempotencyKey: string) => Promise<ApiResult<T>>): Promise<ApiResult<T> | null> => {
      if (busy.current || performance.now() - succeededAt.current < DOUBLE_CLICK_MS) return null;
      busy.current = true;
      setPending(true);
      try {
        const result = await submit(key.current);
        if (result.code === 0) {
          key.current = newIdempotencyKey();
          succeededAt.current = performance.now();
        }
        return result;
      } finally {
        busy.current = false;
        setPending(false);
      }
    },
    [],
  );
  return { run, pending };
}

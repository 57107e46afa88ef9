import { useCallback, useRef, useState } from 'react';
import type { ApiResult } from './request';

/** A fresh `Idempotency-Key` (README "Idempotent requests"): 32 random hex digits. */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * One submit at a time for a form or button that creates something: while a submit is in flight
 * further ones are dropped (a double-click, Enter pressed twice), and every attempt of one intent
 * carries the same `Idempotency-Key`, renewed after a success — so even a repeat that reaches the
 * server (a retry after a lost answer) creates nothing twice.
 */
export function useSubmitOnce() {
  const busy = useRef(false);
  const key = useRef(newIdempotencyKey());
  const [pending, setPending] = useState(false);
  const run = useCallback(
    async <T>(submit: (idempotencyKey: string) => Promise<ApiResult<T>>): Promise<ApiResult<T> | null> => {
      if (busy.current) return null;
      busy.current = true;
      setPending(true);
      try {
        const result = await submit(key.current);
        if (result.code === 0) key.current = newIdempotencyKey();
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

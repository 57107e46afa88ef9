import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { ApiResult } from './request';
import { DOUBLE_CLICK_MS, useSubmitOnce } from './submit-once';

/**
 * useSubmitOnce drops a second submit while the first is in flight and, when the first succeeded fast,
 * the second click of a double-click arriving just after it; a later submit goes through with a new key.
 */

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;
let once: ReturnType<typeof useSubmitOnce>;
function Harness() {
  once = useSubmitOnce();
  return null;
}

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  vi.useRealTimers();
});

describe('useSubmitOnce', () => {
  it('drops repeats in flight and within a double-click after a success, not later ones', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    root = createRoot(document.createElement('div'));
    act(() => root!.render(<Harness />));
    const keys: string[] = [];
    const submit = (key: string): Promise<ApiResult<string>> => {
      keys.push(key);
      return Promise.resolve({ code: 0, data: 'made', message: '', status: 200, headers: null });
    };

    let first!: Promise<ApiResult<string> | null>;
    let inFlight!: Promise<ApiResult<string> | null>;
    act(() => {
      first = once.run(submit);
      inFlight = once.run(submit);
    });
    await act(async () => {
      expect((await first)?.data).toBe('made');
      expect(await inFlight).toBeNull();
    });
    // The first answered at once; the double-click's second click comes 120 ms later.
    vi.advanceTimersByTime(120);
    await act(async () => expect(await once.run(submit)).toBeNull());
    expect(keys).toHaveLength(1);

    vi.advanceTimersByTime(DOUBLE_CLICK_MS);
    await act(async () => expect(await once.run(submit)).not.toBeNull());
    expect(keys).toHaveLength(2);
    expect(keys[1]).not.toBe(keys[0]);
  });

  it('lets a retry through at once after a failure, with the same key', async () => {
    root = createRoot(document.createElement('div'));
    act(() => root!.render(<Harness />));
    const keys: string[] = [];
    const failing = (key: string): Promise<ApiResult<null>> => {
      keys.push(key);
      return Promise.resolve({ code: 100, data: null, message: 'lost', status: 200, headers: null });
    };
    await act(async () => expect((await once.run(failing))?.code).toBe(100));
    await act(async () => expect((await once.run(failing))?.code).toBe(100));
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });
});

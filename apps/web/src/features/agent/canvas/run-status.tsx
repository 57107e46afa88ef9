import { createContext, useContext, useEffect, useState } from 'react';
import type { NodeRunState } from '../lib/run-state';

/** Live run state of each node (from the run's SSE events), read by the canvas nodes. */
export const RunStatusContext = createContext<Record<string, NodeRunState>>({});

export function useNodeRunState(id: string): NodeRunState | undefined {
  return useContext(RunStatusContext)[id];
}

/** Seconds since `startedAt` while running, refreshed ten times a second. */
export function useElapsed(state: NodeRunState | undefined): number | null {
  const [now, setNow] = useState(() => Date.now());
  const running = state?.status === 'running';
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, [running]);
  if (!state) return null;
  if (state.elapsed !== undefined) return state.elapsed;
  return Math.max(0, (now - state.startedAt) / 1000);
}

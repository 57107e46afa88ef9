import { useCallback, useEffect, useRef, useState } from 'react';
import type { SseEnvelope, StreamOutcome } from '../../../api/sse';
import { applyAnswerEvent, startAnswer, type StreamedAnswer } from '../lib/answer-stream';

export type StreamStarter = (
  onEvent: (event: SseEnvelope) => void,
  signal: AbortSignal,
) => Promise<StreamOutcome>;

export interface StreamRun {
  outcome: StreamOutcome;
  answer: StreamedAnswer;
}

/**
 * One answer streaming at a time: `run` starts it and resolves with how it ended and the whole answer;
 * `stop` aborts it (the server keeps the question and what was streamed so far). Leaving the page stops it too.
 */
export function useAnswerStream() {
  const [answer, setAnswer] = useState<StreamedAnswer | null>(null);
  const [streaming, setStreaming] = useState(false);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const run = useCallback(async (start: StreamStarter, id: string | null = null): Promise<StreamRun> => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    let state = startAnswer(id);
    setAnswer(state);
    setStreaming(true);
    const outcome = await start((event) => {
      state = applyAnswerEvent(state, event);
      if (!abort.signal.aborted) setAnswer(state);
    }, abort.signal);
    if (controller.current === abort) {
      controller.current = null;
      setStreaming(false);
    }
    return { outcome, answer: state };
  }, []);

  const stop = useCallback(() => controller.current?.abort(), []);
  const reset = useCallback(() => setAnswer(null), []);

  return { answer, streaming, run, stop, reset };
}

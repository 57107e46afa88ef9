import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@lectern/shared';
import { feedback, navigation } from './feedback';
import { createSseParser, isTerminator, postSse, type SseEnvelope } from './sse';

const delta = (answer: string) => ({
  code: 0,
  message: '',
  data: { answer, reference: { chunks: [] }, final: false },
});
const frame = (payload: unknown) => `data:${JSON.stringify(payload)}\n\n`;
const DONE = frame({ code: 0, message: '', data: true });

describe('createSseParser', () => {
  it('returns nothing until an event is complete, however the text is split', () => {
    const text = frame(delta('Hello')) + frame(delta(' world'));
    for (let cut = 1; cut < text.length; cut++) {
      const parser = createSseParser();
      const events = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut)), ...parser.flush()];
      expect(events, `cut at ${cut}`).toEqual([delta('Hello'), delta(' world')]);
    }
  });

  it('splits a chunk holding several events, one character at a time too', () => {
    const text = frame(delta('a')) + frame(delta('b')) + DONE;
    expect(createSseParser().push(text)).toEqual([
      delta('a'),
      delta('b'),
      { code: 0, message: '', data: true },
    ]);
    const parser = createSseParser();
    const events = [...text].flatMap((ch) => parser.push(ch));
    expect(events).toHaveLength(3);
  });

  it('keeps a JSON document whose string contains a blank-line-like escape intact', () => {
    const payload = delta('line one\n\nline two');
    expect(createSseParser().push(frame(payload))).toEqual([payload]);
  });

  it('accepts CRLF framing, even split between \\r and \\n, and the optional space after data:', () => {
    const parser = createSseParser();
    const events = [
      ...parser.push('data: {"code":0,"message":"","data":{"answer":"x"}}\r'),
      ...parser.push('\n\r'),
      ...parser.push('\ndata:{"code":0,"message":"","data":true}\r\n\r\n'),
    ];
    expect(events).toEqual([
      { code: 0, message: '', data: { answer: 'x' } },
      { code: 0, message: '', data: true },
    ]);
  });

  it('ignores comments and other fields, joins multi-line data, reports non-JSON data as raw', () => {
    const parser = createSseParser();
    expect(
      parser.push(': keep-alive\n\nevent: message\nid: 7\ndata:{"code":0,\ndata:"message":"","data":1}\n\n'),
    ).toEqual([{ code: 0, message: '', data: 1 }]);
    expect(parser.push('data:not json\n\n')).toEqual([{ raw: 'not json' }]);
    expect(parser.push('data:[DONE]\n\n')).toEqual([]);
  });

  it('delivers an unterminated last event on flush', () => {
    const parser = createSseParser();
    expect(parser.push('data:{"code":0,"message":"","data":true}')).toEqual([]);
    expect(parser.flush()).toEqual([{ code: 0, message: '', data: true }]);
    expect(parser.flush()).toEqual([]);
  });

  it('recognizes the terminator only as code 0 with data true', () => {
    expect(isTerminator({ code: 0, message: '', data: true })).toBe(true);
    expect(isTerminator({ code: 0, message: '', data: { answer: '' } })).toBe(false);
    expect(isTerminator({ code: 500, message: 'x', data: true })).toBe(false);
  });
});

/** A streamed response whose body arrives in the given pieces. */
function streamed(pieces: string[], contentType = 'text/event-stream; charset=utf-8'): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const p of pieces) controller.enqueue(encoder.encode(p));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': contentType } });
}

describe('postSse', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    localStorage.clear();
    // antd toasts render through React's scheduler, which would run after the DOM environment is
    // torn down; the texts they show are the request client's (tested there), so they are stubbed here.
    vi.spyOn(feedback, 'error').mockImplementation(() => undefined);
    vi.spyOn(feedback, 'notifyError').mockImplementation(() => undefined);
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('posts JSON with the stored credential and hands over every event up to the terminator', async () => {
    localStorage.setItem(STORAGE_KEYS.authorization, 'session-token');
    const error = {
      code: 500,
      message: 'model down',
      data: { answer: '**ERROR**: model down', reference: [] },
    };
    fetchMock.mockResolvedValue(
      streamed([
        frame(delta('Hel')).slice(0, 20),
        frame(delta('Hel')).slice(20) + frame(delta('lo')),
        frame(error),
        DONE,
        frame(delta('after')),
      ]),
    );
    const events: SseEnvelope[] = [];
    const outcome = await postSse(
      '/conversation/completion',
      { conversationId: 'c1', messages: [] },
      { onEvent: (e) => events.push(e) },
    );
    expect(outcome).toEqual({ ok: true, aborted: false, code: 0, message: '', shown: false });
    expect(events).toEqual([delta('Hel'), delta('lo'), error]);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/v1/conversation/completion');
    expect(init?.method).toBe('POST');
    expect((init?.headers as Record<string, string>).Authorization).toBe('session-token');
    expect(JSON.parse(String(init?.body))).toEqual({ conversation_id: 'c1', messages: [] });
  });

  it('sends the credential the caller gives (the share page) instead of the stored one', async () => {
    localStorage.setItem(STORAGE_KEYS.authorization, 'session-token');
    fetchMock.mockResolvedValue(streamed([DONE]));
    await postSse('/v1/api/completion', {}, { onEvent: () => undefined, authorization: 'Bearer beta-1' });
    expect(fetchMock.mock.calls[0][0]).toBe('/v1/api/completion');
    expect((fetchMock.mock.calls[0][1]?.headers as Record<string, string>).Authorization).toBe(
      'Bearer beta-1',
    );
  });

  it('returns an envelope that came instead of a stream as a refusal', async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ code: 102, message: 'Conversation not found!' }), {
        headers: { 'content-type': 'application/json' },
      }),
    );
    const outcome = await postSse('/conversation/completion', {}, { onEvent: () => undefined });
    expect(outcome).toMatchObject({
      ok: false,
      aborted: false,
      code: 102,
      message: 'Conversation not found!',
      shown: false,
    });
  });

  it('signs out on 401 like the request client', async () => {
    localStorage.setItem(STORAGE_KEYS.authorization, 'stale');
    const toLogin = vi.spyOn(navigation, 'toLogin').mockImplementation(() => undefined);
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ code: 401, message: "<Unauthorized '401: Unauthorized'>", data: null }), {
        status: 401,
        headers: { 'content-type': 'application/json' },
      }),
    );
    const outcome = await postSse('/conversation/ask', {}, { onEvent: () => undefined });
    expect(outcome).toMatchObject({ ok: false, code: 401, shown: true });
    expect(localStorage.getItem(STORAGE_KEYS.authorization)).toBeNull();
    expect(toLogin).toHaveBeenCalledOnce();
    toLogin.mockRestore();
  });

  it('reports a stopped stream as aborted, and a failed connection as code 1999', async () => {
    const controller = new AbortController();
    fetchMock.mockImplementation(async (_url, init) => {
      controller.abort();
      throw init?.signal?.reason ?? new Error('aborted');
    });
    expect(await postSse('/x', {}, { onEvent: () => undefined, signal: controller.signal })).toMatchObject({
      aborted: true,
    });
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    expect(await postSse('/x', {}, { onEvent: () => undefined })).toMatchObject({
      ok: false,
      code: 1999,
      shown: true,
    });
  });

  it('turns an unreadable event into an error event', async () => {
    fetchMock.mockResolvedValue(streamed(['data:{broken\n\n', DONE]));
    const events: SseEnvelope[] = [];
    await postSse('/x', {}, { onEvent: (e) => events.push(e) });
    expect(events).toHaveLength(1);
    expect(events[0].code).toBe(500);
    expect(events[0].message).toBe('The server sent an answer that could not be read.');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import {
  startOpenAIStandin,
  type ChatScript,
  type OpenAIChatBody,
  type Standin,
} from '../../../test/standins/index.js';
import {
  answers,
  createConversation,
  createDialog,
  createKb,
  postSse,
  seedChunks,
  wireModels,
} from '../../chat/test-fixtures.js';

/** The search page (ask, mind map, related questions) and text to speech. */

let server: TestServer;
let llm: Standin;
let embed: Standin;
let user: TestUser;
let kbId: string;
let reply: (body: OpenAIChatBody) => string | ChatScript = () => 'ok';

beforeAll(async () => {
  llm = await startOpenAIStandin({ reply: (b) => reply(b) });
  embed = await startOpenAIStandin();
  server = await startTestServer({ MODEL_MAX_RETRIES: '0' });
  user = await newUser(server, 'searcher');
  await wireModels(server, user, llm, { tts: true, embed });
  kbId = await createKb(server, user, 'Astronomy');
  await seedChunks(server, kbId, user.id, [
    { content: 'Mars is the fourth planet from the Sun.', doc: 'mars.txt' },
    { content: 'Jupiter is the largest planet of the solar system.', doc: 'jupiter.txt' },
  ]);
});

afterAll(async () => {
  await server?.close();
  await llm?.close();
  await embed?.close();
});

describe('POST /v1/conversation/ask', () => {
  it('streams a summary with citations over the chosen knowledge bases', async () => {
    reply = () => 'Jupiter is the largest planet of the solar system.';
    const r = await postSse(
      server,
      '/v1/conversation/ask',
      { question: 'largest planet', kb_ids: [kbId] },
      user.token,
    );
    expect(r.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const events = answers(r);
    const final = events[events.length - 1];
    expect(
      events
        .filter((e) => !e.final)
        .map((e) => e.answer)
        .join(''),
    ).toBe('Jupiter is the largest planet of the solar system.');
    expect(final.final).toBe(true);
    expect(final.reference.chunks.map((c) => c.document_name)).toContain('jupiter.txt');
    expect(final.reference.doc_aggs).toEqual([expect.objectContaining({ doc_name: 'jupiter.txt' })]);
    expect(r.events[r.events.length - 1]).toEqual({ code: 0, message: '', data: true });
  });

  it('reports a knowledge base the caller may not use as an error event', async () => {
    const other = await newUser(server, 'snoop');
    const r = await postSse(
      server,
      '/v1/conversation/ask',
      { question: 'planet', kb_ids: [kbId] },
      other.token,
    );
    expect(r.events[0]).toMatchObject({ code: 500, message: 'No authorization.' });
    expect(r.events[1]).toEqual({ code: 0, message: '', data: true });
  });
});

describe('POST /v1/conversation/mindmap and related_questions', () => {
  it('builds a mind-map tree from the retrieved chunks', async () => {
    reply = () => '# Planets\n## Mars\n- fourth from the Sun\n## Jupiter\n- largest\n  - gas giant';
    const res = await call(server, '/v1/conversation/mindmap', {
      token: user.token,
      body: { question: 'planets of the solar system', kb_ids: [kbId] },
    });
    expect(res.body).toEqual({
      code: 0,
      message: 'success',
      data: {
        id: 'Planets',
        children: [
          { id: 'Mars', children: [{ id: 'fourth from the Sun', children: [] }] },
          { id: 'Jupiter', children: [{ id: 'largest', children: [{ id: 'gas giant', children: [] }] }] },
        ],
      },
    });
  });

  it('answers 100 with the generator’s error text when the model fails', async () => {
    llm.fail('500', 1);
    const res = await call(server, '/v1/conversation/mindmap', {
      token: user.token,
      body: { question: 'planets of the solar system', kb_ids: [kbId] },
    });
    expect(res.body.code).toBe(100);
    expect(res.body.message).toMatch(/500|server had an error/i);
    expect(llm.modelCalls().at(-1)?.path).toBe('/v1/chat/completions');
  });

  it('lists related search terms with the numbering stripped', async () => {
    reply = () => 'Here you go:\n1. planet sizes\n2. gas giants\nthanks\n3. solar system order';
    const res = await call(server, '/v1/conversation/related_questions', {
      token: user.token,
      body: { question: 'planets' },
    });
    expect(res.body).toEqual({
      code: 0,
      message: 'success',
      data: ['planet sizes', 'gas giants', 'solar system order'],
    });
  });
});

describe('POST /v1/conversation/tts', () => {
  it('streams audio/mpeg synthesized piece by piece with the tenant’s TTS model', async () => {
    const res = await fetch(`${server.url}/v1/conversation/tts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: user.token },
      body: JSON.stringify({ text: 'Hello world. How are you?' }),
    });
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    const audio = Buffer.from(await res.arrayBuffer()).toString('latin1');
    expect(audio).toContain('Hello world');
    expect(audio).toContain('How are you');
    expect(audio.startsWith('ID3')).toBe(true);
  });

  it('says so when no TTS model is set', async () => {
    const plain = await newUser(server, 'mute');
    const res = await call(server, '/v1/conversation/tts', { token: plain.token, body: { text: 'hi' } });
    expect(res.body).toMatchObject({ code: 102, message: 'No default TTS model is set' });
  });
});

describe('answers read aloud (prompt_config.tts)', () => {
  it('attaches the audio of each finished sentence to the delta that finished it', async () => {
    reply = () => 'Mars is the fourth planet. Jupiter is the largest';
    const d = await createDialog(server, user, {
      kb_ids: [kbId],
      prompt_config: { system: '{knowledge}', tts: true },
    });
    const conv = await createConversation(server, user, d.id);
    const r = await postSse(
      server,
      '/v1/conversation/completion',
      {
        conversation_id: conv,
        messages: [{ role: 'user', content: 'Which planets orbit the Sun?', id: 'q1' }],
      },
      user.token,
    );
    const withAudio = answers(r).filter((e) => e.audio_binary);
    const spoken = withAudio.map((e) => Buffer.from(e.audio_binary as string, 'hex').toString('latin1'));
    expect(spoken).toHaveLength(2);
    expect(spoken[0]).toContain('Mars is the fourth planet');
    expect(spoken[1]).toContain('Jupiter is the largest');
    expect(answers(r).find((e) => e.final)?.audio_binary).toBeNull();
  });
});

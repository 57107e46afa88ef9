import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAIStandin, type Standin } from '../../../test/standins/index.js';
import { addModel } from '../chunk/test-support.js';
import { upload } from '../kb/test-support.js';

/** `conversation/sequence2txt` against the OpenAI stand-in's transcription API, and login channels. */
describe('speech to text and login channels', () => {
  let server: TestServer;
  let llm: Standin;
  let alice: TestUser;
  const channels = [{ channel: 'github', display_name: 'GitHub', icon: 'github' }];
  beforeAll(async () => {
    llm = await startOpenAIStandin();
    server = await startTestServer({ LOGIN_CHANNELS: JSON.stringify(channels) });
    alice = await newUser(server, 'alice');
  });
  afterAll(async () => {
    await server.close();
    await llm.close();
  });

  const send = (fields: Record<string, string>, name = 'clip.wav', data = 'RIFF-audio-bytes') =>
    upload(server, alice.token, fields, [{ name, data }], '/v1/conversation/sequence2txt');

  it('answers the missing-model, missing-file and format errors', async () => {
    expect((await send({})).body).toMatchObject({ code: 102, message: 'No default ASR model is set' });
    expect((await upload(server, alice.token, {}, [], '/v1/conversation/sequence2txt')).body).toMatchObject({
      code: 102,
      message: "Missing 'file' in multipart form-data",
    });
    expect((await send({}, 'clip.txt')).body).toMatchObject({
      code: 102,
      message: 'Unsupported audio format: txt. Allowed: wav, mp3, m4a, aac, flac, ogg, webm, opus, wma',
    });
  });

  it('transcribes with the tenant ASR model, as one answer or as a stream', async () => {
    const asr = await addModel(server, alice, {
      llm_factory: 'OpenAI-API-Compatible',
      llm_name: 'whisper',
      model_type: 'speech2text',
      api_base: `${llm.url}/v1`,
    });
    await server.ctx.db.kysely
      .updateTable('tenant')
      .set({ asr_id: asr })
      .where('id', '=', alice.id)
      .execute();
    const plain = await send({});
    expect(plain.body).toEqual({
      code: 0,
      message: 'success',
      data: { text: expect.stringMatching(/^Transcribed \d+ bytes with whisper/) },
    });
    const form = new FormData();
    form.append('stream', 'true');
    form.append('file', new Blob([Buffer.from('RIFF-audio-bytes')]), 'clip.mp3');
    const res = await fetch(`${server.url}/v1/conversation/sequence2txt`, {
      method: 'POST',
      headers: { Authorization: alice.token },
      body: form,
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const text = await res.text();
    expect(text).toMatch(/^data:\{"event":"final","text":"Transcribed \d+ bytes with whisper[^"]*"\}\n\n$/);
  });

  it('user/login/channels answers the configured channels', async () => {
    const res = await call(server, '/v1/user/login/channels');
    expect(res.body).toEqual({ code: 0, message: 'success', data: channels });
  });
});

import { describe, expect, it } from 'vitest';
import { contract } from '@lectern/shared';
import { call, newUser, startTestServer } from '../../test/harness.js';
import { drainViolations } from '../../test/contract-violations.js';
import { checkAnswer, checkEvent } from './contract-check.js';

describe('checkAnswer', () => {
  it('accepts an answer that matches the data schema', () => {
    expect(
      checkAnswer(contract.kb.create, { code: 0, message: 'success', data: { kb_id: 'a'.repeat(32) } }),
    ).toEqual([]);
  });

  it('names the route, the path of the bad field and its value', () => {
    const [v, ...rest] = checkAnswer(
      contract.kb.list,
      { code: 0, message: 'success', data: { kbs: [{ id: 'x' }], total: 1 } },
      '/v1/kb/list?page=1',
    );
    expect(v).toMatchObject({
      route: 'POST /v1/kb/list',
      url: '/v1/kb/list?page=1',
      path: 'data.kbs.0.avatar',
    });
    expect(rest.length).toBeGreaterThan(0);
  });

  it('reports keys the contract does not name, with their value', () => {
    const violations = checkAnswer(contract.kb.create, {
      code: 0,
      message: 'success',
      data: { kb_id: 'k', extra: 5 },
    });
    expect(violations).toEqual([
      expect.objectContaining({ route: 'POST /v1/kb/create', path: 'data.extra', value: 5 }),
    ]);
  });

  it('ignores failures, bytes and streams', () => {
    expect(checkAnswer(contract.kb.create, { code: 102, message: 'Tenant not found.', data: 7 })).toEqual([]);
    expect(checkAnswer(contract.document.file, 'raw bytes')).toEqual([]);
    expect(checkAnswer(contract.conversation.ask, { code: 0, data: 'x' })).toEqual([]);
  });

  it('checks the whole body of a plain (unenveloped) route', () => {
    expect(checkAnswer(contract.system.healthz, { status: 'ok' })[0]).toMatchObject({ path: 'database' });
  });
});

describe('checkEvent', () => {
  const delta = {
    answer: 'Hel',
    reference: { chunks: [] },
    audio_binary: null,
    prompt: '',
    created_at: 1.5,
    final: false,
    id: 'm1',
    session_id: 's1',
  };

  it('accepts answer events and the terminator of an SSE route', () => {
    expect(checkEvent(contract.conversation.completion, { code: 0, message: '', data: delta })).toEqual([]);
    expect(checkEvent(contract.conversation.completion, { code: 0, message: '', data: true })).toEqual([]);
  });

  it('reports an event whose data is off the contract, and ignores error events', () => {
    const bad = { code: 0, message: '', data: { ...delta, final: 'no' } };
    expect(checkEvent(contract.conversation.completion, bad)[0]).toMatchObject({
      route: 'POST /v1/conversation/completion',
      path: 'event.data.final',
      value: 'no',
    });
    const error = { code: 500, message: 'boom', data: { answer: '**ERROR**: boom', reference: [] } };
    expect(checkEvent(contract.conversation.completion, error)).toEqual([]);
  });
});

describe('the contract check of the test server', () => {
  it('records answers of the running server, which the test setup then reports', async () => {
    const server = await startTestServer();
    try {
      const user = await newUser(server);
      const res = await call(server, '/v1/user/info', { token: user.token });
      expect(res.body.code).toBe(0);
      // A real answer matches; a doctored record of one is what a mismatch looks like.
      expect(drainViolations()).toEqual([]);
      server.app.contractCheck?.violations.push(
        ...checkAnswer(contract.user.info, { ...res.body, data: { ...(res.body.data as object), id: 7 } }),
      );
      expect(drainViolations()).toEqual([
        expect.objectContaining({ route: 'GET /v1/user/info', path: 'data.id', value: 7 }),
      ]);
    } finally {
      await server.close();
    }
  });
});

/**
 * `/v1/canvas` routes other than runs: templates, prompts, set (create/update, versions, malformed
 * DSLs refused with nothing saved), get/getsse, list/listteam and `dialog/list-public-agent` with
 * team permission, setting, versions, reset, rm, sessions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { joinTeam } from '../kb/test-support.js';
import { editorDsl, llmParams, saveCanvas, simpleFlow } from './test-support.js';

const MODEL = 'standin-chat@OpenAI-API-Compatible';
let server: TestServer;
let owner: TestUser;
let member: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  owner = await newUser(server, 'owner');
  member = await newUser(server, 'member');
  outsider = await newUser(server, 'outsider');
  await joinTeam(server, member.id, owner.id, 'normal');
});

afterAll(async () => {
  await server?.close();
});

const get = <T>(route: string, user: TestUser) => call<T>(server, route, { token: user.token });
const post = <T>(route: string, user: TestUser, body: unknown) =>
  call<T>(server, route, { token: user.token, body });

describe('templates and prompts', () => {
  it('lists the shipped templates with localized titles and runnable DSLs', async () => {
    const res = await get<Array<{ id: string; title: Record<string, string>; dsl: { components: object } }>>(
      '/v1/canvas/templates',
      owner,
    );
    expect(res.body.code).toBe(0);
    expect(res.body.data!.length).toBeGreaterThanOrEqual(15);
    for (const t of res.body.data!) {
      expect(t.title.en).toBeTruthy();
      expect(Object.keys(t.dsl.components)).toContain('begin');
    }
    // A template saves as a canvas unchanged (set validates it).
    const first = res.body.data![0];
    await saveCanvas(server, owner, { title: 'From template', dsl: first.dsl });
  });

  it('answers the built-in prompts', async () => {
    const res = await get<Record<string, string>>('/v1/canvas/prompts', owner);
    expect(Object.keys(res.body.data!).sort()).toEqual([
      'citation_guidelines',
      'plan_generation',
      'reflection',
      'task_analysis',
    ]);
  });
});

describe('set, get, versions', () => {
  it('creates, updates and keeps the newest 20 versions titled <title>_<YYYY_MM_DD_HH_MM_SS>', async () => {
    const created = await saveCanvas(server, owner, {
      title: 'Versioned',
      dsl: JSON.stringify(simpleFlow(MODEL)),
      description: 'd',
    });
    expect(created).toMatchObject({ title: 'Versioned', user_id: owner.id, permission: 'me' });
    expect((created.dsl as { components: object }).components).toHaveProperty('LLM:Writer');
    for (let i = 0; i < 21; i++)
      await saveCanvas(server, owner, { id: created.id, title: 'Versioned', dsl: simpleFlow(MODEL) });
    const versions = await get<Array<{ id: string; title: string; user_canvas_id: string }>>(
      `/v1/canvas/getlistversion/${created.id}`,
      owner,
    );
    expect(versions.body.data).toHaveLength(20);
    expect(versions.body.data![0].title).toMatch(/^Versioned_\d{4}_\d\d_\d\d_\d\d_\d\d_\d\d$/);
    const one = await get<{ dsl: { components: object } }>(
      `/v1/canvas/getversion/${versions.body.data![0].id}`,
      owner,
    );
    expect(one.body.data!.dsl.components).toHaveProperty('Message:Reply');
    // Another tenant sees neither the versions nor a version.
    expect((await get(`/v1/canvas/getlistversion/${created.id}`, outsider)).body).toMatchObject({
      code: 102,
      message: 'canvas not found.',
    });
    expect((await get(`/v1/canvas/getversion/${versions.body.data![0].id}`, outsider)).body.code).toBe(102);
  });

  it('refuses a duplicate title on create, and updates by anyone but the owner', async () => {
    await saveCanvas(server, owner, { title: 'Unique', dsl: simpleFlow(MODEL) });
    const dup = await post('/v1/canvas/set', owner, { title: 'Unique', dsl: simpleFlow(MODEL) });
    expect(dup.body).toMatchObject({ code: 102, message: 'Unique already exists.' });
    const c = await saveCanvas(server, owner, { title: 'Mine', dsl: simpleFlow(MODEL), permission: 'team' });
    const other = await post('/v1/canvas/set', member, { id: c.id, title: 'Mine', dsl: simpleFlow(MODEL) });
    expect(other.body).toMatchObject({
      code: 103,
      message: 'Only owner of canvas authorized for this operation.',
    });
  });

  it('refuses malformed DSLs with the component named, and saves nothing', async () => {
    const count = async () =>
      Number(
        (
          await server.ctx.db.kysely
            .selectFrom('user_canvas')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const flow = () =>
      simpleFlow(MODEL) as unknown as { components: Record<string, Record<string, unknown>> };
    const unknownComponent = flow();
    unknownComponent.components['Teleport:X'] = {
      obj: { component_name: 'Teleport', params: {} },
      downstream: [],
      upstream: [],
    };
    const dangling = flow();
    (dangling.components['LLM:Writer'] as { downstream: string[] }).downstream = ['Message:Nowhere'];
    const noBegin = flow();
    delete noBegin.components.begin;
    const badRef = editorDsl([
      { id: 'begin', name: 'begin', downstream: ['Message:M'] },
      { id: 'Message:M', name: 'Speaker', params: { content: ['{LLM:Ghost@content}'] } },
    ]);
    const cycle = editorDsl([
      { id: 'begin', name: 'begin', downstream: ['LLM:A'] },
      { id: 'LLM:A', name: 'Ping', params: llmParams(MODEL, 'x'), downstream: ['LLM:B'] },
      { id: 'LLM:B', name: 'Pong', params: llmParams(MODEL, 'y'), downstream: ['LLM:A'] },
    ]);
    const cases: Array<[unknown, RegExp]> = [
      [unknownComponent, /Teleport/],
      [dangling, /Writer/],
      [noBegin, /[Bb]egin/],
      [badRef, /Speaker/],
      [cycle, /Ping|Pong/],
      ['{not json', /not valid JSON/],
    ];
    for (const [dsl, message] of cases) {
      const res = await post('/v1/canvas/set', owner, { title: `Bad ${String(message)}`, dsl });
      expect(res.body.code).toBe(102);
      expect(res.body.message).toMatch(message);
    }
    expect(await count()).toBe(before);
    const missing = await post('/v1/canvas/set', owner, { title: 'x' });
    expect(missing.body).toMatchObject({ code: 101, message: 'required argument are missing: dsl; ' });
  });

  it('get answers the canvas with its owner; unknown and foreign alike are "canvas not found."', async () => {
    const c = await saveCanvas(server, owner, { title: 'Gettable', dsl: simpleFlow(MODEL) });
    const res = await get<{ nickname: string; dsl: object }>(`/v1/canvas/get/${c.id}`, owner);
    expect(res.body.data).toMatchObject({ id: c.id, nickname: 'owner', canvas_category: 'agent_canvas' });
    expect((await get(`/v1/canvas/get/${c.id}`, outsider)).body).toMatchObject({
      code: 102,
      message: 'canvas not found.',
    });
    expect((await get(`/v1/canvas/get/${'a'.repeat(32)}`, owner)).body.code).toBe(102);
  });
});

describe('lists and team permission', () => {
  it('list shows own and team-shared canvases; listteam only the teams’; list-public-agent likewise', async () => {
    // A team of its own, so other tests' canvases stay out of the lists.
    const owner = await newUser(server, 'lead');
    const member = await newUser(server, 'mate');
    await joinTeam(server, member.id, owner.id, 'normal');
    const shared = await saveCanvas(server, owner, {
      title: 'Shared one',
      dsl: simpleFlow(MODEL),
      permission: 'team',
    });
    const priv = await saveCanvas(server, owner, { title: 'Private one', dsl: simpleFlow(MODEL) });
    const own = await saveCanvas(server, member, { title: 'Member own', dsl: simpleFlow(MODEL) });
    const list = await get<{ canvas: Array<{ id: string; nickname: string }>; total: number }>(
      '/v1/canvas/list?keywords=one',
      member,
    );
    expect(list.body.data!.canvas.map((x) => x.id)).toEqual([shared.id]);
    const all = await get<{ canvas: Array<{ id: string }>; total: number }>('/v1/canvas/list', member);
    expect(all.body.data!.canvas.map((x) => x.id).sort()).toEqual([shared.id, own.id].sort());
    expect(all.body.data!.total).toBe(2);
    const team = await get<{ kbs: Array<{ id: string }>; total: number }>('/v1/canvas/listteam', member);
    expect(team.body.data!.kbs.map((x) => x.id)).toEqual([shared.id]);
    const paged = await get<{ canvas: unknown[]; total: number }>(
      '/v1/canvas/list?page=1&page_size=1&orderby=update_time&desc=false',
      owner,
    );
    expect(paged.body.data!.canvas).toHaveLength(1);
    expect(paged.body.data!.total).toBeGreaterThan(1);
    const agents = await get<Array<{ id: string; tenant_id: string }>>(
      '/v1/dialog/list-public-agent',
      member,
    );
    expect(agents.body.data!.map((a) => a.id).sort()).toEqual([shared.id, own.id].sort());
    expect((await get<unknown[]>('/v1/dialog/list-public-agent', outsider)).body.data).toEqual([]);
    // The team member may read the shared canvas, not the private one.
    expect((await get(`/v1/canvas/get/${shared.id}`, member)).body.code).toBe(0);
    expect((await get(`/v1/canvas/get/${priv.id}`, member)).body.code).toBe(102);
  });
});

describe('setting, reset, rm, getsse', () => {
  it('setting changes title and permission (owner only)', async () => {
    const c = await saveCanvas(server, owner, { title: 'Settable', dsl: simpleFlow(MODEL) });
    const res = await post('/v1/canvas/setting', owner, { id: c.id, title: 'Renamed', permission: 'team' });
    expect(res.body).toMatchObject({ code: 0, data: 1 });
    expect((await get<{ title: string }>(`/v1/canvas/get/${c.id}`, member)).body.data!.title).toBe('Renamed');
    const refused = await post('/v1/canvas/setting', member, {
      id: c.id,
      title: 'Mine now',
      permission: 'me',
    });
    expect(refused.body.code).toBe(103);
  });

  it('reset clears the run state and saves it', async () => {
    const dsl = { ...simpleFlow(MODEL), history: [['user', 'hi']], path: ['begin'] };
    const c = await saveCanvas(server, owner, { title: 'Resettable', dsl });
    const res = await post<{ history: unknown[]; path: unknown[] }>('/v1/canvas/reset', owner, { id: c.id });
    expect(res.body.data).toMatchObject({ history: [], path: [] });
    const saved = await get<{ dsl: { history: unknown[] } }>(`/v1/canvas/get/${c.id}`, owner);
    expect(saved.body.data!.dsl.history).toEqual([]);
    expect((await post('/v1/canvas/reset', outsider, { id: c.id })).body.code).toBe(103);
  });

  it('rm removes owned canvases with their versions, all or nothing', async () => {
    const a = await saveCanvas(server, owner, { title: 'Doomed', dsl: simpleFlow(MODEL) });
    const theirs = await saveCanvas(server, member, { title: 'Not yours', dsl: simpleFlow(MODEL) });
    const refused = await post('/v1/canvas/rm', owner, { canvas_ids: [a.id, theirs.id] });
    expect(refused.body).toMatchObject({
      code: 103,
      message: 'Only owner of canvas authorized for this operation.',
    });
    expect((await get(`/v1/canvas/get/${a.id}`, owner)).body.code).toBe(0);
    expect((await post('/v1/canvas/rm', owner, { canvas_ids: [a.id] })).body).toMatchObject({
      code: 0,
      data: true,
    });
    expect((await get(`/v1/canvas/get/${a.id}`, owner)).body.code).toBe(102);
    const left = await server.ctx.db.kysely
      .selectFrom('user_canvas_version')
      .select('id')
      .where('user_canvas_id', '=', a.id)
      .execute();
    expect(left).toEqual([]);
  });

  it('getsse answers the canvas to the beta token of the owner’s API key', async () => {
    const c = await saveCanvas(server, owner, { title: 'Shareable', dsl: simpleFlow(MODEL) });
    const key = await post<{ beta: string }>('/v1/api/new_token', owner, { canvas_id: c.id });
    const beta = key.body.data!.beta;
    const ok = await call<{ id: string }>(server, `/v1/canvas/getsse/${c.id}`, {
      headers: { Authorization: `Bearer ${beta}` },
    });
    expect(ok.body.data).toMatchObject({ id: c.id, title: 'Shareable' });
    expect(
      (await call(server, `/v1/canvas/getsse/${c.id}`, { headers: { Authorization: beta } })).body,
    ).toMatchObject({
      code: 102,
      message: 'Authorization is not valid!',
    });
    expect(
      (await call(server, `/v1/canvas/getsse/${c.id}`, { headers: { Authorization: 'Bearer nope' } })).body,
    ).toMatchObject({ code: 102, message: 'Authentication error: API key is invalid!' });
    const theirs = await saveCanvas(server, outsider, { title: 'Elsewhere', dsl: simpleFlow(MODEL) });
    expect(
      (await call(server, `/v1/canvas/getsse/${theirs.id}`, { headers: { Authorization: `Bearer ${beta}` } }))
        .body,
    ).toMatchObject({ code: 103 });
  });
});

describe('sessions', () => {
  it('creates, lists, reads and removes sessions; another tenant gets 103', async () => {
    const c = await saveCanvas(server, owner, { title: 'With sessions', dsl: simpleFlow(MODEL) });
    const made = await call<{ id: string; source: string; message: unknown[] }>(
      server,
      `/v1/canvas/${c.id}/sessions`,
      {
        method: 'PUT',
        token: owner.token,
        body: { name: 'First' },
      },
    );
    expect(made.body.data).toMatchObject({ name: 'First', source: 'agent', message: [], dialog_id: c.id });
    const list = await get<{ total: number; sessions: Array<{ id: string; dsl?: object }> }>(
      `/v1/canvas/${c.id}/sessions?dsl=false`,
      owner,
    );
    expect(list.body.data!.total).toBe(1);
    expect(list.body.data!.sessions[0].dsl).toBeUndefined();
    const one = await get<{ id: string }>(`/v1/canvas/${c.id}/sessions/${made.body.data!.id}`, owner);
    expect(one.body.data!.id).toBe(made.body.data!.id);
    expect((await get(`/v1/canvas/${c.id}/sessions`, outsider)).body.code).toBe(103);
    const rm = await call(server, `/v1/canvas/${c.id}/sessions/${made.body.data!.id}`, {
      method: 'DELETE',
      token: owner.token,
    });
    expect(rm.body).toMatchObject({ code: 0, data: true });
    expect((await get(`/v1/canvas/${c.id}/sessions/${made.body.data!.id}`, owner)).body.code).toBe(102);
  });
});

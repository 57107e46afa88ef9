import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestUser } from '../../../test/harness.js';
import { createKb } from '../../chat/test-fixtures.js';
import { setupSearchWorld, type SearchWorld } from './test-support.js';

/** Search apps (API.md §15) over HTTP: every `/v1/search` route, its refusals and bad input. */

let w: SearchWorld;

beforeAll(async () => {
  w = await setupSearchWorld();
});

afterAll(async () => {
  await w?.close();
});

describe('create / detail / list / update / rm (API.md §15)', () => {
  it('creates with the §15 defaults, suffixes a taken name, and shows it in detail', async () => {
    const id = await w.createApp(w.owner, 'Planets');
    const again = await w.createApp(w.owner, 'planets');
    const detail = await call<Record<string, unknown>>(w.server, `/v1/search/detail?search_id=${id}`, {
      token: w.owner.token,
    });
    expect(detail.body).toMatchObject({
      code: 0,
      data: {
        id,
        name: 'Planets',
        description: 'planets',
        tenant_id: w.owner.id,
        created_by: w.owner.id,
        status: '1',
        search_config: {
          kb_ids: [],
          doc_ids: [],
          similarity_threshold: 0.2,
          vector_similarity_weight: 0.3,
          use_kg: false,
          rerank_id: '',
          top_k: 1024,
          summary: false,
          chat_id: '',
          llm_setting: {},
          cross_languages: [],
          highlight: false,
          keyword: false,
          web_search: false,
          related_search: false,
          query_mindmap: false,
          meta_data_filter: {},
        },
      },
    });
    const second = await call<{ name: string }>(w.server, `/v1/search/detail?search_id=${again}`, {
      token: w.owner.token,
    });
    expect(second.body.data!.name).toBe('planets(1)');
  });

  it('refuses bad names with the contract messages', async () => {
    const send = (body: unknown) => call(w.server, '/v1/search/create', { token: w.owner.token, body });
    expect((await send({})).body).toMatchObject({
      code: 101,
      message: 'required argument are missing: name; ',
    });
    expect((await send({ name: 7 })).body).toMatchObject({
      code: 102,
      message: 'Search name must be string.',
    });
    expect((await send({ name: '  ' })).body).toMatchObject({
      code: 102,
      message: "Search name can't be empty.",
    });
    expect((await send({ name: 'é'.repeat(128) })).body).toMatchObject({
      code: 102,
      message: 'Search name length is 256 which is large than 255.',
    });
  });

  it('lists the apps of the caller’s teams with paging, keywords and owner data', async () => {
    const id = await w.createApp(w.owner, 'Listed galaxy');
    const list = (token: string, query = '', body: unknown = {}) =>
      call<{ search_apps: Array<Record<string, unknown>>; total: number }>(
        w.server,
        `/v1/search/list${query}`,
        {
          token,
          body,
        },
      );
    const mine = await list(w.owner.token, '?keywords=GALAXY');
    expect(mine.body.data!.total).toBe(1);
    expect(mine.body.data!.search_apps[0]).toMatchObject({
      id,
      name: 'Listed galaxy',
      nickname: 'searchowner',
      tenant_id: w.owner.id,
    });
    const paged = await list(w.owner.token, '?page=1&page_size=1&orderby=name&desc=false');
    expect(paged.body.data!.search_apps).toHaveLength(1);
    expect(paged.body.data!.total).toBeGreaterThan(1);
    expect((await list(w.stranger.token)).body.data).toEqual({ search_apps: [], total: 0 });
    // A normal w.member of the owner's team sees the team's apps; owner_ids narrows.
    const team = await list(w.member.token, '?keywords=galaxy');
    expect(team.body.data!.search_apps.map((a) => a.id)).toEqual([id]);
    expect((await list(w.member.token, '', { owner_ids: [w.member.id] })).body.data!.total).toBe(0);
    expect((await list(w.owner.token, '?page=x')).body).toMatchObject({
      code: 100,
      message: '`page` must be an integer.',
    });
  });

  it('updates: shallow-merged config, checks in the contract order', async () => {
    const id = await w.createApp(w.owner, 'To update');
    await w.createApp(w.owner, 'Taken name');
    const base = { search_id: id, name: 'Updated', tenant_id: w.owner.id };
    const ok = await w.update(w.owner, {
      ...base,
      description: 'new words',
      search_config: { kb_ids: [w.kbId], top_k: 50, custom_key: 'kept' },
    });
    expect(ok.body.code).toBe(0);
    expect(ok.body.data).toMatchObject({
      name: 'Updated',
      description: 'new words',
      search_config: { kb_ids: [w.kbId], top_k: 50, custom_key: 'kept', similarity_threshold: 0.2 },
    });
    const merged = await w.update(w.owner, { ...base, search_config: { similarity_threshold: 0.5 } });
    expect(merged.body.data).toMatchObject({
      search_config: { kb_ids: [w.kbId], top_k: 50, custom_key: 'kept', similarity_threshold: 0.5 },
    });

    expect((await w.update(w.owner, { search_id: id })).body).toMatchObject({
      code: 101,
      message: 'required argument are missing: name,search_config,tenant_id; ',
    });
    expect(
      (await w.update(w.stranger, { ...base, tenant_id: w.stranger.id, search_config: {} })).body,
    ).toMatchObject({
      code: 109,
      message: 'No authorization.',
    });
    // Team members use the app; only its creator changes it.
    expect((await w.update(w.member, { ...base, search_config: {} })).body.code).toBe(109);
    expect(
      (await w.update(w.owner, { ...base, search_id: 'f'.repeat(32), search_config: {} })).body.code,
    ).toBe(109);
    expect(
      (await w.update(w.owner, { ...base, tenant_id: w.member.id, search_config: {} })).body,
    ).toMatchObject({
      code: 102,
      message: `Cannot find search ${id}`,
    });
    expect((await w.update(w.owner, { ...base, name: 'taken NAME', search_config: {} })).body).toMatchObject({
      code: 102,
      message: 'Duplicated search name.',
    });
    for (const bad of [[], 'x', null, 3]) {
      expect((await w.update(w.owner, { ...base, search_config: bad })).body).toMatchObject({
        code: 102,
        message: 'search_config must be a JSON object',
      });
    }
    expect(
      (await w.update(w.owner, { ...base, search_config: { similarity_threshold: 2 } })).body,
    ).toMatchObject({
      code: 100,
      message: '`similarity_threshold` must be between 0 and 1.',
    });
    expect((await w.update(w.owner, { ...base, search_config: { top_k: 0 } })).body).toMatchObject({
      code: 100,
      message: '`top_k` must be greater than 0.',
    });
    expect((await w.update(w.owner, { ...base, search_config: { kb_ids: 'x' } })).body).toMatchObject({
      code: 100,
      message: '`kb_ids` must be a list of strings.',
    });
    const foreignKb = await createKb(w.server, w.stranger, 'Private');
    expect((await w.update(w.owner, { ...base, search_config: { kb_ids: [foreignKb] } })).body).toMatchObject(
      {
        code: 109,
        message: 'No authorization.',
      },
    );
  });

  it('detail and rm refuse foreign, unknown and removed apps', async () => {
    const id = await w.createApp(w.owner, 'Short lived');
    const detail = (user: TestUser, sid = id) =>
      call(w.server, `/v1/search/detail?search_id=${sid}`, { token: user.token });
    expect((await detail(w.stranger)).body).toMatchObject({
      code: 103,
      message: 'Has no permission for this operation.',
    });
    expect((await detail(w.owner, 'nope')).body.code).toBe(103);
    expect((await detail(w.member)).body.code).toBe(0);
    const rm = (user: TestUser, body: unknown) =>
      call(w.server, '/v1/search/rm', { token: user.token, body });
    expect((await rm(w.owner, {})).body).toMatchObject({
      code: 101,
      message: 'required argument are missing: search_id; ',
    });
    expect((await rm(w.stranger, { search_id: id })).body).toMatchObject({
      code: 109,
      message: 'No authorization.',
    });
    expect((await rm(w.member, { search_id: id })).body.code).toBe(109);
    expect((await rm(w.owner, { search_id: id })).body).toMatchObject({ code: 0, data: true });
    expect((await detail(w.owner)).body.code).toBe(103);
    expect((await rm(w.owner, { search_id: id })).body.code).toBe(109);
  });
});

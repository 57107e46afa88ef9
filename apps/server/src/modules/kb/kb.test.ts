import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { RAPTOR_PROMPT } from '../../ingest/parser-config.js';
import { createKb, joinTeam, uploadDocs } from './test-support.js';

type Kb = Record<string, unknown>;

describe('knowledge bases (API.md §5)', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    server = await startTestServer();
    alice = await newUser(server, 'alice');
    bob = await newUser(server, 'bob');
  });
  afterAll(async () => server.close());

  const create = (token: string, body: unknown) =>
    call<{ kb_id: string }>(server, '/v1/kb/create', { token, body });
  const detail = async (token: string, kbId: string) =>
    (await call<Kb>(server, `/v1/kb/detail?kb_id=${kbId}`, { token })).body;

  it('creates a KB with the defaults of §5 and §19.6 and shows its detail object', async () => {
    const res = await create(alice.token, { name: '  Papers  ' });
    expect(res.body.code).toBe(0);
    const kbId = (res.body.data as { kb_id: string }).kb_id;
    expect(kbId).toMatch(/^[0-9a-f]{32}$/);
    const d = await detail(alice.token, kbId);
    expect(d.code).toBe(0);
    const kb = d.data as Kb;
    expect(Object.keys(kb).sort()).toEqual(
      [
        'id',
        'embd_id',
        'avatar',
        'name',
        'language',
        'description',
        'permission',
        'doc_num',
        'token_num',
        'chunk_num',
        'parser_id',
        'pipeline_id',
        'pipeline_name',
        'pipeline_avatar',
        'parser_config',
        'pagerank',
        'graphrag_task_id',
        'graphrag_task_finish_at',
        'raptor_task_id',
        'raptor_task_finish_at',
        'mindmap_task_id',
        'mindmap_task_finish_at',
        'create_time',
        'update_time',
        'size',
        'connectors',
      ].sort(),
    );
    expect(kb).toMatchObject({
      name: 'Papers',
      permission: 'me',
      parser_id: 'naive',
      language: 'English',
      doc_num: 0,
      size: 0,
      connectors: [],
    });
    const tenant = await server.ctx.db.kysely
      .selectFrom('tenant')
      .selectAll()
      .where('id', '=', alice.id)
      .executeTakeFirstOrThrow();
    expect(kb.embd_id).toBe(tenant.embd_id);
    expect(kb.parser_config).toMatchObject({
      layout_recognize: 'DeepDOC',
      chunk_token_num: 512,
      delimiter: '\n',
      auto_keywords: 0,
      auto_questions: 0,
      html4excel: false,
      topn_tags: 3,
      table_context_size: 0,
      image_context_size: 0,
      llm_id: tenant.llm_id,
      raptor: {
        use_raptor: true,
        prompt: RAPTOR_PROMPT,
        max_token: 256,
        threshold: 0.1,
        max_cluster: 64,
        random_seed: 0,
      },
      graphrag: { use_graphrag: true, method: 'light' },
    });
  });

  it('deep-merges the given parser_config over the method defaults', async () => {
    const res = await create(alice.token, {
      name: 'qa set',
      parser_id: 'qa',
      permission: 'team',
      parser_config: { raptor: { max_token: 100 }, delimiter: '`##`' },
    });
    const kb = (await detail(alice.token, (res.body.data as { kb_id: string }).kb_id)).data as Kb;
    expect(kb.permission).toBe('team');
    expect(kb.parser_config).toMatchObject({
      raptor: { use_raptor: false, max_token: 100 },
      graphrag: { use_graphrag: false },
      delimiter: '`##`',
    });
  });

  it('checks the dataset name with the contract messages', async () => {
    expect((await create(alice.token, {})).body).toEqual({
      code: 101,
      message: 'required argument are missing: name; ',
    });
    expect((await create(alice.token, { name: 5 })).body).toMatchObject({
      code: 102,
      message: 'Dataset name must be string.',
    });
    expect((await create(alice.token, { name: '   ' })).body).toMatchObject({
      code: 102,
      message: "Dataset name can't be empty.",
    });
    const long = '知'.repeat(43); // 129 bytes, 43 characters
    expect((await create(alice.token, { name: long })).body).toMatchObject({
      code: 102,
      message: 'Dataset name length is 43 which is large than 128',
    });
    expect((await create(alice.token, { name: 'a'.repeat(128) })).body.code).toBe(0);
  });

  it('suffixes duplicate names name(1), name(2) within the tenant only', async () => {
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = (await create(alice.token, { name: 'Dup' })).body.data as { kb_id: string };
      names.push(((await detail(alice.token, id.kb_id)).data as Kb).name as string);
    }
    expect(names).toEqual(['Dup', 'Dup(1)', 'Dup(2)']);
    const other = (await create(bob.token, { name: 'dup' })).body.data as { kb_id: string };
    expect(((await detail(bob.token, other.kb_id)).data as Kb).name).toBe('dup');
  });

  it('validates parsing settings: chunk token number, RAPTOR fields, page ranges', async () => {
    const bad = async (parser_config: unknown, parser_id = 'naive') =>
      (await create(alice.token, { name: 'x', parser_id, parser_config })).body;
    expect(await bad({ chunk_token_num: null })).toMatchObject({
      code: 101,
      message: 'Chunk token number is required.',
    });
    expect(await bad({ chunk_token_num: 5000 })).toMatchObject({
      code: 100,
      message: '`chunk_token_num` must be between 1 and 2048.',
    });
    expect(await bad({ raptor: { use_raptor: true, prompt: '' } })).toMatchObject({
      code: 101,
      message: 'Prompt is required',
    });
    expect(await bad({ raptor: { use_raptor: true, max_cluster: null } })).toMatchObject({
      code: 101,
      message: 'Max cluster is required',
    });
    expect(await bad({ pages: [[null, 4]] })).toMatchObject({
      code: 101,
      message: 'Missing start page number',
    });
    expect(await bad({ pages: [[1]] })).toMatchObject({
      code: 101,
      message: 'Missing end page number (excluded)',
    });
    expect(await bad({ pages: [[5, 3]] })).toMatchObject({
      code: 100,
      message: 'The end page must be greater than the start page.',
    });
    expect(
      await bad({
        pages: [
          [1, 10],
          [4, 8],
        ],
      }),
    ).toMatchObject({
      code: 100,
      message: "The end page must be greater than the previous range's end page.",
    });
    expect(await bad({ task_page_size: null })).toMatchObject({
      code: 101,
      message: 'Please input your task page size!',
    });
    expect(await bad({}, 'nonsense')).toMatchObject({ code: 100 });
    expect(
      (
        await create(alice.token, {
          name: 'pages ok',
          parser_config: {
            pages: [
              [1, 10],
              [12, 20],
            ],
            task_page_size: 4,
          },
        })
      ).body.code,
    ).toBe(0);
    // A method without a token budget needs none.
    expect((await create(alice.token, { name: 'table kb', parser_id: 'table' })).body.code).toBe(0);
  });

  it('updates a KB: required and forbidden fields, ownership, duplicates, embedding lock', async () => {
    const kbId = await createKb(server, alice.token, { name: 'Original' });
    const update = (token: string, body: Record<string, unknown>) =>
      call<Kb>(server, '/v1/kb/update', { token, body });
    expect((await update(alice.token, {})).body).toEqual({
      code: 101,
      message: 'required argument are missing: kb_id,name,description,parser_id; ',
    });
    const base = { kb_id: kbId, name: 'Renamed', description: 'about', parser_id: 'naive' };
    expect((await update(alice.token, { ...base, tenant_id: 'x' })).body).toMatchObject({
      code: 101,
      message: "Parameter tenant_id isn't allowed",
    });
    expect((await update(alice.token, { ...base, create_time: 1 })).body).toMatchObject({
      code: 101,
      message: "Parameter create_time isn't allowed",
    });
    expect((await update(bob.token, base)).body).toMatchObject({ code: 109, message: 'No authorization.' });
    expect((await update(alice.token, { ...base, kb_id: 'f'.repeat(32) })).body).toMatchObject({ code: 109 });
    await createKb(server, alice.token, { name: 'Taken' });
    expect((await update(alice.token, { ...base, name: 'taken' })).body).toMatchObject({
      code: 102,
      message: 'Duplicated dataset name.',
    });
    expect((await update(alice.token, { ...base, name: '' })).body).toMatchObject({
      code: 102,
      message: "Dataset name can't be empty.",
    });

    const ok = await update(alice.token, {
      ...base,
      permission: 'team',
      pagerank: 20,
      parser_config: { chunk_token_num: 128, delimiter: '\n' },
    });
    expect(ok.body.code).toBe(0);
    expect(ok.body.data).toMatchObject({
      id: kbId,
      name: 'Renamed',
      description: 'about',
      permission: 'team',
      pagerank: 20,
    });
    expect((ok.body.data as Kb).parser_config).toEqual({ chunk_token_num: 128, delimiter: '\n' });
    expect((await update(alice.token, { ...base, pagerank: 101 })).body.code).toBe(100);
    expect((await update(alice.token, { ...base, parser_config: { chunk_token_num: 0 } })).body.code).toBe(
      100,
    );

    // Embedding model locked while chunks exist.
    await server.ctx.db.kysely
      .updateTable('knowledgebase')
      .set({ chunk_num: 7, embd_id: 'm1@OpenAI' })
      .where('id', '=', kbId)
      .execute();
    expect((await update(alice.token, { ...base, embd_id: 'other@OpenAI' })).body).toMatchObject({
      code: 102,
      message: 'When chunk_num (7) > 0, embedding_model must remain m1@OpenAI',
    });
    expect((await update(alice.token, { ...base, embd_id: 'm1@OpenAI' })).body.code).toBe(0);
  });

  it('lists own KBs plus team-shared KBs of teams the user is a normal member of', async () => {
    const carol = await newUser(server, 'carol');
    const dave = await newUser(server, 'dave');
    const a = await createKb(server, carol.token, { name: 'Alpha notes' });
    const b = await createKb(server, carol.token, { name: 'beta shared', permission: 'team' });
    const c = await createKb(server, dave.token, { name: 'Gamma shared', permission: 'team' });
    await createKb(server, dave.token, { name: 'delta private' });
    await joinTeam(server, carol.id, dave.id, 'normal');

    const list = async (query = '', body: unknown = {}) =>
      (await call<{ kbs: Kb[]; total: number }>(server, `/v1/kb/list${query}`, { token: carol.token, body }))
        .body.data as { kbs: Kb[]; total: number };
    const all = await list();
    expect(all.total).toBe(3);
    expect(all.kbs.map((k) => k.id)).toEqual([c, b, a]); // newest first
    expect(Object.keys(all.kbs[0]).sort()).toEqual(
      [
        'id',
        'avatar',
        'name',
        'language',
        'description',
        'tenant_id',
        'permission',
        'doc_num',
        'token_num',
        'chunk_num',
        'parser_id',
        'embd_id',
        'nickname',
        'tenant_avatar',
        'update_time',
      ].sort(),
    );
    expect(all.kbs.find((k) => k.id === c)?.nickname).toBe('dave');
    expect((await list('?keywords=SHARED')).kbs.map((k) => k.id)).toEqual([c, b]);
    const paged = await list('?page=2&page_size=2&orderby=create_time&desc=false');
    expect(paged.total).toBe(3);
    expect(paged.kbs.map((k) => k.id)).toEqual([c]);
    expect((await list('?orderby=name&desc=false')).kbs.map((k) => k.name)).toEqual([
      'Alpha notes',
      'beta shared',
      'Gamma shared',
    ]);
    expect((await list('', { owner_ids: [dave.id] })).kbs.map((k) => k.id)).toEqual([c]);

    // An invited (not yet normal) member sees nothing of the team; neither does a stranger.
    const erin = await newUser(server, 'erin');
    await joinTeam(server, erin.id, dave.id, 'invite');
    const erinList = (await call<{ total: number }>(server, '/v1/kb/list', { token: erin.token, body: {} }))
      .body.data as { total: number };
    expect(erinList.total).toBe(0);

    // Detail: team members may read team KBs; a stranger gets 103.
    expect((await detail(carol.token, c)).code).toBe(0);
    expect(await detail(erin.token, c)).toMatchObject({
      code: 103,
      message: 'Only owner of dataset authorized for this operation.',
    });
    expect(await detail(carol.token, 'f'.repeat(32))).toMatchObject({ code: 103 });
  });

  it('removes a KB with its documents, blobs, tasks and file-manager mirror; only the creator may', async () => {
    const kbId = await createKb(server, alice.token, { name: 'Doomed' });
    const docs = await uploadDocs(server, alice.token, kbId, [
      { name: 'one.txt', data: 'first document' },
      { name: 'two.md', data: '# Title\n\nsecond document' },
    ]);
    const db = server.ctx.db.kysely;
    const mirror = await db
      .selectFrom('file')
      .selectAll()
      .where('name', '=', 'Doomed')
      .executeTakeFirstOrThrow();
    expect(mirror.source_type).toBe('knowledgebase');
    expect(
      (await db.selectFrom('file').select('id').where('parent_id', '=', mirror.id).execute()).length,
    ).toBe(2);

    expect((await call(server, '/v1/kb/rm', { token: bob.token, body: { kb_id: kbId } })).body).toMatchObject(
      { code: 109, message: 'No authorization.' },
    );
    expect((await call(server, '/v1/kb/rm', { token: alice.token, body: {} })).body.code).toBe(101);
    const rm = await call(server, '/v1/kb/rm', { token: alice.token, body: { kb_id: kbId } });
    expect(rm.body).toEqual({ code: 0, message: 'success', data: true });
    expect(
      await db.selectFrom('knowledgebase').select('id').where('id', '=', kbId).executeTakeFirst(),
    ).toBeUndefined();
    expect(await db.selectFrom('document').select('id').where('kb_id', '=', kbId).execute()).toEqual([]);
    expect(
      await db.selectFrom('file').select('id').where('id', '=', mirror.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(
      await db
        .selectFrom('file2document')
        .select('id')
        .where(
          'document_id',
          'in',
          docs.map((d) => d.id),
        )
        .execute(),
    ).toEqual([]);
    expect(await server.ctx.blobs.exists(`${kbId}/one.txt`)).toBe(false);
    expect((await detail(alice.token, kbId)).code).toBe(103);
  });

  it('renaming a KB renames its .knowledgebase folder; basic_info and get_meta summarise documents', async () => {
    const kbId = await createKb(server, alice.token, { name: 'Folder name' });
    const [doc] = await uploadDocs(server, alice.token, kbId, [{ name: 'm.txt', data: 'meta doc' }]);
    const db = server.ctx.db.kysely;
    const before = await db
      .selectFrom('file')
      .selectAll()
      .where('name', '=', 'Folder name')
      .executeTakeFirstOrThrow();
    const res = await call(server, '/v1/kb/update', {
      token: alice.token,
      body: { kb_id: kbId, name: 'New folder', description: '', parser_id: 'naive' },
    });
    expect(res.body.code).toBe(0);
    const after = await db
      .selectFrom('file')
      .selectAll()
      .where('id', '=', before.id)
      .executeTakeFirstOrThrow();
    expect(after.name).toBe('New folder');

    await call(server, '/v1/document/set_meta', {
      token: alice.token,
      body: { doc_id: doc.id, meta: '{"author":"Ann","tags":["x","y"]}' },
    });
    const meta = await call(server, `/v1/kb/get_meta?kb_ids=${kbId}`, { token: alice.token });
    expect(meta.body.data).toEqual({ author: { Ann: [doc.id] }, tags: { x: [doc.id], y: [doc.id] } });
    expect((await call(server, `/v1/kb/get_meta?kb_ids=${kbId}`, { token: bob.token })).body.code).toBe(109);
    const info = await call(server, `/v1/kb/basic_info?kb_id=${kbId}`, { token: alice.token });
    expect(info.body.data).toEqual({ processing: 0, finished: 0, failed: 0, cancelled: 0, downloaded: 0 });
    expect((await call(server, `/v1/kb/basic_info?kb_id=${kbId}`, { token: bob.token })).body.code).toBe(109);
    expect((await call(server, `/v1/kb/${kbId}/tags`, { token: bob.token })).body.code).toBe(109);
    expect((await call(server, `/v1/kb/${kbId}/tags`, { token: alice.token })).body.data).toEqual([]);
  });
});

/**
 * The policy against the real database: who a caller is (memberships), the list filters agreeing with
 * `can` row by row, and each loader's answers in the contract's order.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import type { Database } from '../db/types.js';
import type { KnowledgebaseTable } from '../db/tables/knowledge.js';
import { newId } from '../util/ids.js';
import {
  accessScopeOf,
  assertDialogConversations,
  assertDialogsRemovable,
  authorizeCanvas,
  can,
  loadChunkDocument,
  loadConversationRows,
  loadDialog,
  loadDocument,
  loadFile,
  loadKb,
  loadKbs,
  loadRetrievalKbs,
  readableCanvases,
  readableDialogs,
  readableKbs,
  refusals,
  resource,
  visibleKbIds,
  type AccessScope,
} from './index.js';
import {
  addConversation,
  addDialog,
  addDoc,
  addFile,
  addKb,
  addMembership,
  addTenant,
} from './test-fixtures.js';

let server: TestServer;
let db: Kysely<Database>;
const owner = newId();
const member = newId();
const invitee = newId();
const admin = newId();
const lapsed = newId();
const outsider = newId();
const scopes: Record<string, AccessScope> = {};
let kbs: Record<'me' | 'team' | 'removed' | 'foreign', KnowledgebaseTable>;

beforeAll(async () => {
  server = await startTestServer();
  db = server.ctx.db.kysely;
  for (const id of [owner, member, invitee, admin, lapsed, outsider]) await addTenant(db, id);
  await addMembership(db, member, owner, 'normal');
  await addMembership(db, invitee, owner, 'invite');
  await addMembership(db, admin, owner, 'admin');
  await addMembership(db, lapsed, owner, 'normal', '0');
  kbs = {
    me: await addKb(db, owner),
    team: await addKb(db, owner, { permission: 'team' }),
    removed: await addKb(db, owner, { permission: 'team', status: '0' }),
    foreign: await addKb(db, outsider, { permission: 'team' }),
  };
  for (const [name, id] of Object.entries({ owner, member, invitee, admin, lapsed, outsider }))
    scopes[name] = await accessScopeOf(db, id);
}, 60_000);

afterAll(async () => {
  await server?.close();
});

const answer = (code: number, message: string) => ({ code, message });
const NO_AUTH = answer(109, 'No authorization.');

describe('scope from memberships', () => {
  it('only normal, enabled memberships open a team; invitees, admins and lapsed members get nothing', () => {
    expect(scopes.member.teamTenantIds).toEqual([owner]);
    expect(scopes.invitee.teamTenantIds).toEqual([]);
    expect(scopes.admin.teamTenantIds).toEqual([]);
    expect(scopes.lapsed.teamTenantIds).toEqual([]);
    expect(scopes.owner).toEqual({ userId: owner, teamTenantIds: [] });
  });
});

describe('list filters agree with the rules', () => {
  it('readableKbs / visibleKbIds keep exactly the KBs `can` lets each caller read', async () => {
    const all = Object.values(kbs);
    for (const scope of Object.values(scopes)) {
      const visible = await visibleKbIds(
        db,
        scope,
        all.map((k) => k.id),
      );
      const expected = all.filter((k) => can(scope, 'read', resource.kb(k))).map((k) => k.id);
      expect(visible.sort()).toEqual(expected.sort());
    }
    expect((await visibleKbIds(db, scopes.member, [kbs.me.id, kbs.team.id, kbs.foreign.id])).sort()).toEqual([
      kbs.team.id,
    ]);
    expect(await visibleKbIds(db, scopes.member, [])).toEqual([]);
  });

  it('owner_ids narrows to those tenants (and to nothing when none is visible)', async () => {
    const ids = async (scope: AccessScope, ownerIds: string[]) =>
      (
        await db
          .selectFrom('knowledgebase as kb')
          .select('kb.id')
          .where(readableKbs(scope, { alias: 'kb', ownerIds }))
          .execute()
      ).map((r) => r.id);
    expect(await ids(scopes.member, [owner])).toEqual([kbs.team.id]);
    expect(await ids(scopes.member, [outsider])).toEqual([]);
    expect((await ids(scopes.owner, [owner, outsider])).sort()).toEqual([kbs.me.id, kbs.team.id].sort());
  });

  it('readableDialogs: live assistants of the caller’s tenant only', async () => {
    const live = await addDialog(db, owner);
    const removed = await addDialog(db, owner, '0');
    const list = async (scope: AccessScope, ownerIds?: string[]) =>
      (
        await db
          .selectFrom('dialog')
          .select('id')
          .where(readableDialogs(scope, { ownerIds }))
          .where('id', 'in', [live, removed])
          .execute()
      ).map((r) => r.id);
    expect(await list(scopes.owner)).toEqual([live]);
    expect(await list(scopes.owner, [owner])).toEqual([live]);
    expect(await list(scopes.owner, [member])).toEqual([]);
    expect(await list(scopes.member)).toEqual([]);
  });

  it('readableCanvases: own and team-shared canvases; listteam keeps only the teams’ ones', async () => {
    // user_canvas arrives with the agent module; the filter is plain SQL over its §18 columns.
    await sql`create table policy_canvas (id varchar(32) primary key, user_id varchar(255), permission varchar(16))`.execute(
      db,
    );
    const rows = [
      { id: 'c-owner-me', user_id: owner, permission: 'me' },
      { id: 'c-owner-team', user_id: owner, permission: 'team' },
      { id: 'c-member-me', user_id: member, permission: 'me' },
      { id: 'c-outsider-team', user_id: outsider, permission: 'team' },
    ];
    for (const r of rows)
      await sql`insert into policy_canvas (id, user_id, permission) values (${r.id}, ${r.user_id}, ${r.permission})`.execute(
        db,
      );
    const list = async (scope: AccessScope, f: Parameters<typeof readableCanvases>[1] = {}) =>
      (
        await sql<{
          id: string;
        }>`select id from policy_canvas where ${readableCanvases(scope, { alias: 'policy_canvas', ...f })} order by id`.execute(
          db,
        )
      ).rows.map((r) => r.id);
    expect(await list(scopes.member)).toEqual(['c-member-me', 'c-owner-team']);
    expect(await list(scopes.member, { teamOnly: true })).toEqual(['c-owner-team']);
    expect(await list(scopes.member, { ownerIds: [member] })).toEqual(['c-member-me']);
    expect(await list(scopes.invitee)).toEqual([]);
    for (const scope of Object.values(scopes)) {
      const expected = rows.filter((r) => can(scope, 'read', resource.canvas(r))).map((r) => r.id);
      expect(await list(scope)).toEqual(expected.sort());
    }
  });
});

describe('knowledge loaders', () => {
  it('loadKb: 109 by default for unknown, removed and foreign KBs; routes may name other answers', async () => {
    await expect(loadKb(db, scopes.member, kbs.team.id, 'read')).resolves.toMatchObject({ id: kbs.team.id });
    await expect(loadKb(db, scopes.member, kbs.me.id, 'read')).rejects.toMatchObject(NO_AUTH);
    await expect(loadKb(db, scopes.member, kbs.removed.id, 'read')).rejects.toMatchObject(NO_AUTH);
    await expect(loadKb(db, scopes.member, kbs.team.id, 'manage')).rejects.toMatchObject(NO_AUTH);
    await expect(loadKb(db, scopes.owner, kbs.team.id, 'manage')).resolves.toBeTruthy();
    await expect(
      loadKb(db, scopes.outsider, kbs.team.id, 'read', { refused: refusals.datasetOwner }),
    ).rejects.toMatchObject(answer(103, 'Only owner of dataset authorized for this operation.'));
    await expect(
      loadKb(db, scopes.owner, newId(), 'read', { missing: refusals.datasetMissingException }),
    ).rejects.toMatchObject(answer(100, "Can't find this dataset!"));
    await expect(loadKbs(db, scopes.owner, [], 'read')).rejects.toMatchObject(NO_AUTH);
    await expect(loadKbs(db, scopes.member, [kbs.team.id, kbs.me.id], 'read')).rejects.toMatchObject(NO_AUTH);
  });

  it('loadDocument / loadChunkDocument: documents follow their KB, with each route’s answers', async () => {
    const teamDoc = await addDoc(db, kbs.team.id, owner);
    const meDoc = await addDoc(db, kbs.me.id, owner);
    const removedDoc = await addDoc(db, kbs.removed.id, owner);
    await expect(loadDocument(db, scopes.member, teamDoc.id, 'manage')).resolves.toMatchObject({
      doc: { id: teamDoc.id },
      kb: { id: kbs.team.id },
    });
    await expect(loadDocument(db, scopes.member, meDoc.id, 'read')).rejects.toMatchObject(NO_AUTH);
    await expect(loadDocument(db, scopes.member, newId(), 'read')).rejects.toMatchObject(NO_AUTH);
    await expect(
      loadDocument(db, scopes.owner, removedDoc.id, 'manage', { kbMissing: refusals.datasetMissing }),
    ).rejects.toMatchObject(answer(102, "Can't find this dataset!"));

    await expect(loadChunkDocument(db, scopes.member, teamDoc.id, 'manage')).resolves.toBeTruthy();
    await expect(loadChunkDocument(db, scopes.outsider, teamDoc.id, 'read')).rejects.toMatchObject(NO_AUTH);
    await expect(loadChunkDocument(db, scopes.owner, newId(), 'read')).rejects.toMatchObject(
      answer(102, 'Document not found!'),
    );
    await expect(loadChunkDocument(db, scopes.owner, removedDoc.id, 'read')).rejects.toMatchObject(
      answer(102, 'Knowledgebase not found!'),
    );
    await expect(loadChunkDocument(db, scopes.outsider, removedDoc.id, 'read')).rejects.toMatchObject(
      NO_AUTH,
    );
  });

  it('loadRetrievalKbs: 103 for any KB out of reach, then 102 for a removed one, in request order', async () => {
    await expect(loadRetrievalKbs(db, scopes.member, [kbs.team.id])).resolves.toHaveLength(1);
    const both = await loadRetrievalKbs(db, scopes.owner, [kbs.team.id, kbs.me.id]);
    expect(both.map((k) => k.id)).toEqual([kbs.team.id, kbs.me.id]);
    await expect(loadRetrievalKbs(db, scopes.member, [kbs.team.id, kbs.me.id])).rejects.toMatchObject(
      answer(103, 'Only owner of dataset authorized for this operation.'),
    );
    await expect(loadRetrievalKbs(db, scopes.owner, [kbs.removed.id, kbs.foreign.id])).rejects.toMatchObject(
      answer(103, 'Only owner of dataset authorized for this operation.'),
    );
    await expect(loadRetrievalKbs(db, scopes.member, [kbs.removed.id])).rejects.toMatchObject(
      answer(102, 'Knowledgebase not found!'),
    );
  });
});

describe('chat loaders', () => {
  it('loadDialog: live assistants of the caller’s tenant; everything else answers the route’s refusal', async () => {
    const live = await addDialog(db, owner);
    const removed = await addDialog(db, owner, '0');
    await expect(loadDialog(db, scopes.owner, live, 'manage')).resolves.toMatchObject({ id: live });
    await expect(loadDialog(db, scopes.member, live, 'read')).rejects.toMatchObject(
      answer(102, 'Dialog not found!'),
    );
    await expect(loadDialog(db, scopes.owner, removed, 'read')).rejects.toMatchObject(
      answer(102, 'Dialog not found!'),
    );
    await expect(loadDialog(db, scopes.owner, 42, 'read', refusals.dialogNotFoundBare)).rejects.toMatchObject(
      answer(102, 'Dialog not found'),
    );
    await expect(loadDialog(db, scopes.member, live, 'manage')).rejects.toMatchObject(
      answer(103, 'Only owner of dialog authorized for this operation.'),
    );
  });

  it('removing assistants: all of the caller’s (removed ones again too) or 103 for all', async () => {
    const live = await addDialog(db, owner);
    const removed = await addDialog(db, owner, '0');
    await expect(assertDialogsRemovable(db, scopes.owner, [live, removed, live])).resolves.toBeUndefined();
    await expect(assertDialogsRemovable(db, scopes.owner, [])).resolves.toBeUndefined();
    await expect(assertDialogsRemovable(db, scopes.owner, [live, newId()])).rejects.toMatchObject(
      answer(103, 'Only owner of dialog authorized for this operation.'),
    );
    await expect(assertDialogsRemovable(db, scopes.member, [live])).rejects.toMatchObject(
      answer(103, 'Only owner of dialog authorized for this operation.'),
    );
  });

  it('conversations follow their assistant’s tenant, removed or not', async () => {
    const removed = await addDialog(db, owner, '0');
    const conv = await addConversation(db, removed, owner);
    await expect(loadConversationRows(db, scopes.owner, conv, 'read')).resolves.toMatchObject({
      conv: { id: conv },
      dialog: { id: removed, status: '0' },
    });
    await expect(loadConversationRows(db, scopes.member, conv, 'read')).rejects.toMatchObject(
      answer(102, 'Conversation not found!'),
    );
    await expect(loadConversationRows(db, scopes.member, conv, 'manage')).rejects.toMatchObject(
      answer(103, 'Only owner of conversation authorized for this operation.'),
    );
    await expect(loadConversationRows(db, scopes.owner, newId(), 'manage')).rejects.toMatchObject(
      answer(102, 'Conversation not found!'),
    );
    await expect(assertDialogConversations(db, scopes.owner, removed)).resolves.toBeUndefined();
    await expect(assertDialogConversations(db, scopes.member, removed)).rejects.toMatchObject(
      answer(103, 'Only owner of dialog authorized for this operation.'),
    );
  });
});

describe('files and canvases', () => {
  it('loadFile: the owner tenant, or readers of a linked KB; only the owner manages', async () => {
    const teamDoc = await addDoc(db, kbs.team.id, owner);
    const meDoc = await addDoc(db, kbs.me.id, owner);
    const shared = await addFile(db, owner, [teamDoc.id]);
    const private_ = await addFile(db, owner, [meDoc.id]);
    await expect(loadFile(db, scopes.owner, private_, 'manage')).resolves.toMatchObject({ id: private_ });
    await expect(loadFile(db, scopes.member, shared, 'read')).resolves.toMatchObject({ id: shared });
    await expect(loadFile(db, scopes.member, shared, 'manage')).rejects.toMatchObject(NO_AUTH);
    await expect(loadFile(db, scopes.member, private_, 'read')).rejects.toMatchObject(NO_AUTH);
    await expect(loadFile(db, scopes.outsider, shared, 'read')).rejects.toMatchObject(NO_AUTH);
    await expect(loadFile(db, scopes.owner, newId(), 'read')).rejects.toMatchObject(
      answer(102, 'File not found!'),
    );
    await expect(
      loadFile(db, scopes.member, private_, 'read', { missing: refusals.documentNotFound }),
    ).rejects.toMatchObject(NO_AUTH);
  });

  it('authorizeCanvas: 102 "canvas not found." to read what one may not, 103 to manage it', () => {
    const canvas = { user_id: owner, permission: 'team' };
    expect(authorizeCanvas(scopes.member, 'read', canvas)).toBe(canvas);
    expect(() => authorizeCanvas(scopes.outsider, 'read', canvas)).toThrow('canvas not found.');
    expect(() => authorizeCanvas(scopes.owner, 'read', undefined)).toThrow('canvas not found.');
    expect(() => authorizeCanvas(scopes.member, 'manage', canvas)).toThrow(
      'Only owner of canvas authorized for this operation.',
    );
    expect(() =>
      authorizeCanvas(scopes.member, 'read', { ...canvas, permission: 'me' }, refusals.canvasOwner),
    ).toThrow('Only owner of canvas authorized for this operation.');
  });
});

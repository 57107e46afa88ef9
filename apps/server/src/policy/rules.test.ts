import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import {
  authorize,
  can,
  isLive,
  permits,
  refusalFor,
  resource,
  type Action,
  type Resource,
} from './rules.js';
import { refusals } from './refusals.js';
import { listedTenantIds, visibleTenantIds, type AccessScope } from './scope.js';

// "owner" owns tenant "owner"; "member" is a normal member of it; "invitee" was only invited (so its
// scope carries no team); "outsider" belongs to another team. An API key of tenant "owner" acts as
// the owner user: its scope is the owner's (accessScopeOf(db, key.tenant_id)).
const owner: AccessScope = { userId: 'owner', teamTenantIds: [] };
const member: AccessScope = { userId: 'member', teamTenantIds: ['owner'] };
const invitee: AccessScope = { userId: 'invitee', teamTenantIds: [] };
const outsider: AccessScope = { userId: 'outsider', teamTenantIds: ['elsewhere'] };
const apiKey: AccessScope = { userId: 'owner', teamTenantIds: [] };
const callers = { owner, member, invitee, outsider, apiKey };
type Who = keyof typeof callers;

const kbMe = { tenant_id: 'owner', created_by: 'owner', permission: 'me', status: '1' };
const kbTeam = { ...kbMe, permission: 'team' };
const kbRemoved = { ...kbTeam, status: '0' };
const dialog = { tenant_id: 'owner', status: '1' };
const canvasMe = { user_id: 'owner', permission: 'me' };
const canvasTeam = { user_id: 'owner', permission: 'team' };
const file = { tenant_id: 'owner' };

/** Who may do `action` on `r`, as a sorted list of caller names. */
function allowed(action: Action, r: Resource): Who[] {
  return (Object.keys(callers) as Who[]).filter((w) => can(callers[w], action, r)).sort();
}

describe('access rules per resource kind (API.md §1.6, §12.2, §13)', () => {
  it('knowledge bases: "me" for the owner tenant, "team" also for normal members; manage = creator', () => {
    expect(allowed('read', resource.kb(kbMe))).toEqual(['apiKey', 'owner']);
    expect(allowed('read', resource.kb(kbTeam))).toEqual(['apiKey', 'member', 'owner']);
    expect(allowed('manage', resource.kb(kbTeam))).toEqual(['apiKey', 'owner']);
    // Only the creator manages, even inside the owner tenant.
    expect(can(owner, 'manage', resource.kb({ ...kbMe, created_by: 'someone' }))).toBe(false);
  });

  it('documents and chunks follow their KB, for reading and for editing alike', () => {
    for (const make of [resource.document, resource.chunk]) {
      for (const action of ['read', 'manage'] as const) {
        expect(allowed(action, make(kbMe))).toEqual(['apiKey', 'owner']);
        expect(allowed(action, make(kbTeam))).toEqual(['apiKey', 'member', 'owner']);
      }
    }
  });

  it('soft-deleted rows are invisible to everyone, while tenancy alone still holds', () => {
    for (const r of [resource.kb(kbRemoved), resource.document(kbRemoved), resource.chunk(kbRemoved)]) {
      expect(allowed('read', r)).toEqual([]);
      expect(isLive(r)).toBe(false);
      expect(permits(member, 'read', r)).toBe(true);
    }
    expect(allowed('read', resource.dialog({ ...dialog, status: '0' }))).toEqual([]);
    expect(allowed('read', resource.canvas({ ...canvasTeam, status: '0' }))).toEqual([]);
    expect(can(owner, 'read', null)).toBe(false);
  });

  it('assistants belong to their tenant alone; conversations follow the assistant, removed or not', () => {
    expect(allowed('read', resource.dialog(dialog))).toEqual(['apiKey', 'owner']);
    expect(allowed('manage', resource.dialog(dialog))).toEqual(['apiKey', 'owner']);
    const removed = { ...dialog, status: '0' };
    expect(allowed('read', resource.conversation(removed))).toEqual(['apiKey', 'owner']);
    expect(allowed('manage', resource.conversation(dialog))).toEqual(['apiKey', 'owner']);
  });

  it('canvases: readable by the owner and, when "team", by normal members; owner-only otherwise', () => {
    expect(allowed('read', resource.canvas(canvasMe))).toEqual(['apiKey', 'owner']);
    expect(allowed('read', resource.canvas(canvasTeam))).toEqual(['apiKey', 'member', 'owner']);
    expect(allowed('manage', resource.canvas(canvasTeam))).toEqual(['apiKey', 'owner']);
  });

  it('files: the owner tenant, or readers of a linked KB; renaming, moving and removing stay with the owner', () => {
    expect(allowed('read', resource.file(file))).toEqual(['apiKey', 'owner']);
    expect(allowed('read', resource.file(file, [kbMe]))).toEqual(['apiKey', 'owner']);
    expect(allowed('read', resource.file(file, [kbMe, kbTeam]))).toEqual(['apiKey', 'member', 'owner']);
    expect(allowed('read', resource.file(file, [kbRemoved]))).toEqual(['apiKey', 'owner']);
    expect(allowed('manage', resource.file(file, [kbTeam]))).toEqual(['apiKey', 'owner']);
  });

  it('tenants: members see the team, the owner manages it', () => {
    expect(allowed('read', resource.tenant('owner'))).toEqual(['apiKey', 'member', 'owner']);
    expect(allowed('manage', resource.tenant('owner'))).toEqual(['apiKey', 'owner']);
  });
});

describe('refusals', () => {
  const refusalOf = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      const e = err as ApiError;
      return { code: e.code, message: e.message, data: e.data };
    }
    throw new Error('expected a refusal');
  };

  it('answers with the kind’s default, exactly as API.md §1.6 spells it', () => {
    expect(refusalOf(() => authorize(outsider, 'read', resource.kb(kbTeam)))).toEqual({
      code: 109,
      message: 'No authorization.',
      data: false,
    });
    expect(refusalOf(() => authorize(outsider, 'read', resource.dialog(dialog)))).toEqual({
      code: 102,
      message: 'Dialog not found!',
      data: undefined,
    });
    expect(refusalOf(() => authorize(outsider, 'manage', resource.dialog(dialog)))).toMatchObject({
      code: 103,
      message: 'Only owner of dialog authorized for this operation.',
    });
    expect(refusalOf(() => authorize(outsider, 'manage', resource.conversation(dialog)))).toMatchObject({
      code: 103,
      message: 'Only owner of conversation authorized for this operation.',
    });
    expect(refusalOf(() => authorize(member, 'manage', resource.canvas(canvasTeam)))).toMatchObject({
      code: 103,
      message: 'Only owner of canvas authorized for this operation.',
    });
    expect(refusalOf(() => authorize(outsider, 'read', resource.canvas(canvasTeam)))).toMatchObject({
      code: 102,
      message: 'canvas not found.',
    });
    expect(refusalOf(() => authorize(member, 'manage', resource.file(file, [kbTeam])))).toMatchObject({
      code: 109,
    });
    expect(refusalFor('conversation', 'read').message).toBe('Conversation not found!');
  });

  it('answers with the route’s own refusal when it names one, and passes when allowed', () => {
    expect(refusalOf(() => authorize(outsider, 'read', resource.kb(kbTeam), refusals.datasetOwner))).toEqual({
      code: 103,
      message: 'Only owner of dataset authorized for this operation.',
      data: undefined,
    });
    expect(() => authorize(member, 'read', resource.kb(kbTeam), refusals.datasetOwner)).not.toThrow();
  });
});

describe('scope', () => {
  it('lists own tenant first, then teams, narrowed by owner_ids', () => {
    expect(visibleTenantIds(member)).toEqual(['member', 'owner']);
    expect(listedTenantIds(member, ['owner', 'stranger'])).toEqual(['owner']);
    expect(listedTenantIds(member, [])).toEqual(['member', 'owner']);
    expect(listedTenantIds(member, null)).toEqual(['member', 'owner']);
  });
});

import { describe, expect, it } from 'vitest';
import { assertAccess, mayAccess, visibleTenantIds, type AccessScope } from './tenancy.js';

const scope: AccessScope = { userId: 'me', teamTenantIds: ['team1'] };

describe('tenancy policy', () => {
  it('lets the owner tenant read and change its rows', () => {
    expect(mayAccess(scope, { tenant_id: 'me', permission: 'me' })).toBe(true);
    expect(mayAccess(scope, { tenant_id: 'me' })).toBe(true);
  });

  it('lets normal team members use team-shared rows only', () => {
    expect(mayAccess(scope, { tenant_id: 'team1', permission: 'team' })).toBe(true);
    expect(mayAccess(scope, { tenant_id: 'team1', permission: 'me' })).toBe(false);
    expect(mayAccess(scope, { tenant_id: 'stranger', permission: 'team' })).toBe(false);
  });

  it('answers unknown and foreign rows alike with "No authorization."', () => {
    expect(() => assertAccess(scope, undefined)).toThrow('No authorization.');
    expect(() => assertAccess(scope, { tenant_id: 'stranger', permission: 'me' })).toThrow(
      'No authorization.',
    );
    const row = { tenant_id: 'me', id: 'x' };
    expect(assertAccess(scope, row)).toBe(row);
  });

  it('lists the tenants whose rows a user may see', () => {
    expect(visibleTenantIds(scope)).toEqual(['me', 'team1']);
  });
});

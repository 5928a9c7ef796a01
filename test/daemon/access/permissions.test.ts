import { describe, expect, it } from 'vitest';
import { can, isRole, PERMISSIONS, ROLES, roleRank, type OrgPermission, type Role } from '../../../daemon/access/permissions.js';

/**
 * The expected grants, written out independently of the implementation: for each permission, the
 * lowest role that has it (SPEC.md "Roles": owner > admin > user > viewer, each including
 * everything below it).
 */
const LOWEST_ROLE: Record<OrgPermission, Role> = {
  'organization:read': 'viewer',
  'organization:settings': 'admin',
  'organization:rename': 'owner',
  'organization:delete': 'owner',
  'members:read': 'viewer',
  'members:manage': 'admin',
  'members:manage-owners': 'owner',
  'invitations:manage': 'admin',
  'membership-requests:manage': 'admin',
  'checks:read': 'viewer',
  'checks:write': 'user',
  'incidents:read': 'viewer',
  'incidents:write': 'user',
  'status-pages:read': 'viewer',
  'status-pages:write': 'user',
  'notification-channels:read': 'viewer',
  'notification-channels:write': 'user',
  'audit-log:read': 'admin',
  'secrets:read': 'admin',
  'secrets:write': 'admin',
  'own-notification-settings:write': 'viewer',
  'own-tokens:write': 'viewer',
  'own-membership:leave': 'viewer',
};

const ORDER: Role[] = ['viewer', 'user', 'admin', 'owner'];
const cases = PERMISSIONS.flatMap((permission) =>
  ROLES.map((role) => ({ role, permission, allowed: ORDER.indexOf(role) >= ORDER.indexOf(LOWEST_ROLE[permission]) })),
);

describe('can(role, permission)', () => {
  it('has an expectation for every declared permission', () => {
    expect(Object.keys(LOWEST_ROLE).sort()).toEqual([...PERMISSIONS].sort());
  });

  it.each(cases)('$role / $permission → $allowed', ({ role, permission, allowed }) => {
    expect(can(role, permission)).toBe(allowed);
  });

  it('makes each role include everything below it', () => {
    for (const permission of PERMISSIONS) {
      for (let i = 1; i < ORDER.length; i++) {
        if (can(ORDER[i - 1], permission)) expect(can(ORDER[i], permission)).toBe(true);
      }
    }
  });

  it('gives a viewer no write except its own notification settings and tokens', () => {
    const viewerWrites = PERMISSIONS.filter((p) => can('viewer', p) && !p.endsWith(':read'));
    expect(viewerWrites.sort()).toEqual(['own-membership:leave', 'own-notification-settings:write', 'own-tokens:write']);
  });

  it('refuses unknown roles and permissions', () => {
    expect(can('guest' as Role, 'checks:read')).toBe(false);
    expect(can('owner', 'checks:delete-everything' as OrgPermission)).toBe(false);
    expect(isRole('admin')).toBe(true);
    expect(isRole('root')).toBe(false);
  });

  it('ranks owner > admin > user > viewer', () => {
    expect(roleRank('owner')).toBeGreaterThan(roleRank('admin'));
    expect(roleRank('admin')).toBeGreaterThan(roleRank('user'));
    expect(roleRank('user')).toBeGreaterThan(roleRank('viewer'));
  });
});

/**
 * Roles as statements: each role is the set of actions it may take on the organization's
 * resources. `owner` > `admin` > `user` > `viewer`, each including everything below it.
 */
import { ROLES, type Role } from '../../contract/access.js';

export { ROLES, type Role };

export const PERMISSIONS = [
  'organization:read',
  'organization:settings',
  'organization:rename',
  'organization:delete',
  'members:read',
  'members:manage',
  'members:manage-owners',
  'invitations:manage',
  'membership-requests:manage',
  'checks:read',
  'checks:write',
  'incidents:read',
  'incidents:write',
  'status-pages:read',
  'status-pages:write',
  'notification-channels:read',
  'notification-channels:write',
  'audit-log:read',
  'own-notification-settings:write',
  'own-tokens:write',
  'own-membership:leave',
  'secrets:read',
  'secrets:write',
] as const;
export type OrgPermission = (typeof PERMISSIONS)[number];

const VIEWER: OrgPermission[] = [
  'organization:read',
  'members:read',
  'checks:read',
  'incidents:read',
  'status-pages:read',
  'notification-channels:read',
  // A viewer changes nothing of the organization's, but its own settings and tokens are its own.
  'own-notification-settings:write',
  'own-tokens:write',
  // ... and so is leaving.
  'own-membership:leave',
];
const USER: OrgPermission[] = [...VIEWER, 'checks:write', 'incidents:write', 'status-pages:write', 'notification-channels:write'];
const ADMIN: OrgPermission[] = [
  ...USER,
  'organization:settings',
  'members:manage',
  'invitations:manage',
  'membership-requests:manage',
  'audit-log:read',
  // Names and use of the organization's secrets; values are write-only for everyone.
  'secrets:read',
  'secrets:write',
];
const OWNER: OrgPermission[] = [...ADMIN, 'organization:rename', 'organization:delete', 'members:manage-owners'];

const GRANTS: Record<Role, ReadonlySet<OrgPermission>> = {
  owner: new Set(OWNER),
  admin: new Set(ADMIN),
  user: new Set(USER),
  viewer: new Set(VIEWER),
};

/** Whether `role` may take `permission`. Pure: the caller reads the role from the database. */
export function can(role: Role, permission: OrgPermission): boolean {
  return GRANTS[role]?.has(permission) ?? false;
}

/** The rank of a role, higher is more: for "at least" comparisons. */
export function roleRank(role: Role): number {
  return ROLES.length - ROLES.indexOf(role);
}

export const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value);

import type { Account, Role } from '../api/types';
import { ROLES as CONTRACT_ROLES } from '../../../contract/access';

/** The caller's role in an organization, from the account (the server checks it again on every call). */
export function roleIn(account: Account | undefined, org: string): Role | undefined {
  return account?.organizations.find((o) => o.slug === org)?.role;
}

const RANK: Record<Role, number> = { viewer: 0, user: 1, admin: 2, owner: 3 };

/** True when `role` is at least `least`. Hiding a button is a courtesy; the API decides. */
export const atLeast = (role: Role | undefined, least: Role): boolean => role !== undefined && RANK[role] >= RANK[least];

/** Writing checks, incidents and the rest takes `user` or more. */
export const canWrite = (role: Role | undefined): boolean => atLeast(role, 'user');

export const isAdmin = (role: Role | undefined): boolean => atLeast(role, 'admin');

export const ROLES: Role[] = [...CONTRACT_ROLES];

/** The roles someone with `role` may grant: only an owner makes owners. */
export const assignableRoles = (role: Role): Role[] => ROLES.filter((r) => role === 'owner' || r !== 'owner');

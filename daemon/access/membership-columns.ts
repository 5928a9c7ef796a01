import type { Membership } from './auth-context.js';
import type { Role } from './permissions.js';

/**
 * What a read made with the credential selects to bring the caller's membership along: the
 * organization's columns and the role, each null when there is no such membership.
 */
export const MEMBERSHIP_COLUMNS = [
  'organizations.uid as o_uid',
  'organizations.slug as o_slug',
  'organizations.name as o_name',
  'organizations.member_limit as o_member_limit',
  'organizations.created_at as o_created_at',
  'members.role as m_role',
] as const;

/** The row fields MEMBERSHIP_COLUMNS yields. */
export interface MembershipColumns {
  o_uid: string | null;
  o_slug: string | null;
  o_name: string | null;
  o_member_limit: number | null;
  o_created_at: string | null;
  m_role: Role | null;
}

/** Splits the membership columns off a row: the rest of it, and the membership, if any. */
export function takeMembership<Row extends MembershipColumns>(row: Row): { rest: Omit<Row, keyof MembershipColumns>; membership?: Membership } {
  const { o_uid, o_slug, o_name, o_member_limit, o_created_at, m_role, ...rest } = row;
  if (!m_role || !o_uid || !o_slug || !o_name || !o_created_at) return { rest };
  return { rest, membership: { org: { uid: o_uid, slug: o_slug, name: o_name, member_limit: o_member_limit, created_at: o_created_at }, role: m_role } };
}

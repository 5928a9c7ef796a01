import { preparedRead } from '../db/prepared-read.js';
import type { AppDeps } from '../deps.js';
import { forbidden, notFound } from '../errors.js';
import type { AuthContext, Membership } from './auth-context.js';
import { can, type OrgPermission, type Role } from './permissions.js';

const ORG_AND_ROLE = preparedRead((db, slug: string, userUid: string) =>
  db
    .selectFrom('organizations')
    .innerJoin('members', 'members.organization_uid', 'organizations.uid')
    .selectAll('organizations')
    .select('members.role')
    .where('organizations.slug', '=', slug)
    .where('members.user_uid', '=', userUid),
);

/**
 * Reads the caller's organization and current role from the database, for this request only
 * (or takes them from the read that authenticated this request). A non-member gets 404 exactly
 * like a missing organization, so existence never leaks.
 */
export async function resolveOrgAccess(deps: Pick<AppDeps, 'db'>, auth: AuthContext, slug: string): Promise<Membership> {
  const membership = auth.membershipRead?.slug === slug ? auth.membershipRead.membership : await readMembership(deps, auth.user.uid, slug);
  if (!membership) throw notFound(`Organization "${slug}" not found.`);
  const { org, role } = membership;
  if (auth.token && auth.token.organizationUid !== org.uid) {
    throw forbidden(`This access token belongs to another organization; it cannot be used for "${slug}".`);
  }
  return { org, role };
}

async function readMembership(deps: Pick<AppDeps, 'db'>, userUid: string, slug: string): Promise<Membership | undefined> {
  const row = await deps.db.readOne(ORG_AND_ROLE, slug, userUid);
  if (!row) return undefined;
  const { role, ...org } = row;
  return { org, role };
}

/** Throws 403 FORBIDDEN unless `role` grants `permission`. */
export function requirePermission(role: Role, permission: OrgPermission): void {
  if (!can(role, permission)) {
    throw forbidden(`Your role (${role}) does not allow this (${permission}).`);
  }
}

import type { AppDeps } from '../deps.js';
import { forbidden, notFound } from '../errors.js';
import type { AuthContext } from './auth-context.js';
import { can, type OrgPermission, type Role } from './permissions.js';

/**
 * Reads the caller's organization and current role from the database, for this request only.
 * A non-member gets 404 exactly like a missing organization, so existence never leaks.
 */
export async function resolveOrgAccess(deps: Pick<AppDeps, 'db'>, auth: AuthContext, slug: string): Promise<{ org: NonNullable<AuthContext['org']>; role: Role }> {
  const row = await deps.db.kysely
    .selectFrom('organizations')
    .innerJoin('members', 'members.organization_uid', 'organizations.uid')
    .selectAll('organizations')
    .select('members.role')
    .where('organizations.slug', '=', slug)
    .where('members.user_uid', '=', auth.user.uid)
    .executeTakeFirst();
  if (!row) throw notFound(`Organization "${slug}" not found.`);
  const { role, ...org } = row;
  if (auth.token && auth.token.organizationUid !== org.uid) {
    throw forbidden(`This access token belongs to another organization; it cannot be used for "${slug}".`);
  }
  return { org, role };
}

/** Throws 403 FORBIDDEN unless `role` grants `permission`. */
export function requirePermission(role: Role, permission: OrgPermission): void {
  if (!can(role, permission)) {
    throw forbidden(`Your role (${role}) does not allow this (${permission}).`);
  }
}

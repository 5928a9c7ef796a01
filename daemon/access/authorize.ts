import { preparedRead } from '../db/prepared-read.js';
import type { Organization } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { AppError, forbidden } from '../errors.js';
import type { AuthContext, Membership, Scope } from './auth-context.js';
import { can, type OrgPermission, type Role } from './permissions.js';

/** The way a call comes in: each has its own token scopes. `metrics` is the REST route of an organization's Prometheus series. */
export type Surface = 'rest' | 'mcp' | 'metrics';

/** What a caller asks to do: through which surface, whether it changes data, and in which organization needing which permission. */
export interface Action {
  surface: Surface;
  writes: boolean;
  org?: { slug: string; permission?: OrgPermission };
}

const SCOPES_NEEDED: Record<Surface, { read: Scope[]; write: Scope[] }> = {
  rest: { read: ['api', 'api:read'], write: ['api'] },
  mcp: { read: ['mcp', 'mcp:read'], write: ['mcp'] },
  metrics: { read: ['api', 'api:read', 'metrics:read'], write: [] },
};

const SURFACE_NAMES: Record<Surface, string> = { rest: 'the REST API', mcp: 'MCP', metrics: "the organization's metrics" };

/** The scopes, any one of which allows reading (or, with `writes`, changing data) through `surface`. */
export const scopesNeeded = (surface: Surface, writes: boolean): Scope[] => SCOPES_NEEDED[surface][writes ? 'write' : 'read'];

/** Whether `scopes` allow reading (or, with `writes`, changing data) through `surface`. */
export const scopesAllow = (scopes: readonly Scope[], surface: Surface, writes: boolean): boolean =>
  scopesNeeded(surface, writes).some((scope) => scopes.includes(scope));

/** Why an action was refused, with what each surface needs to say so in its own words. */
export type Refusal =
  | { reason: 'scope'; needed: Scope[] }
  | { reason: 'organization'; slug: string }
  | { reason: 'token-organization'; org: Organization }
  | { reason: 'role'; org: Organization; role: Role; permission: OrgPermission };

/** A refused action: 404 for an organization the caller is not in (existence never leaks), 403 otherwise. */
export class AccessDenied extends AppError {
  constructor(
    readonly refusal: Refusal,
    message: string,
  ) {
    super(refusal.reason === 'organization' ? 'NOT_FOUND' : 'FORBIDDEN', message);
  }
}

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
 * The one authorization of REST routes and MCP tools: the token's scopes for the surface, then,
 * for an action in an organization, the caller's membership (taken from the read that
 * authenticated the request, or read now: never cached between requests), the organization a
 * token is bound to, and the member's current role. Throws AccessDenied; returns the
 * organization and role when the action names an organization.
 */
export async function authorize(deps: Pick<AppDeps, 'db'>, auth: AuthContext, action: Action & { org: NonNullable<Action['org']> }): Promise<Membership>;
export async function authorize(deps: Pick<AppDeps, 'db'>, auth: AuthContext, action: Action): Promise<Membership | undefined>;
export async function authorize(deps: Pick<AppDeps, 'db'>, auth: AuthContext, action: Action): Promise<Membership | undefined> {
  if (auth.token && !scopesAllow(auth.scopes, action.surface, action.writes)) {
    const needed = scopesNeeded(action.surface, action.writes);
    const doing = `${action.writes ? 'changing data' : 'reading'} through ${SURFACE_NAMES[action.surface]}`;
    throw new AccessDenied(
      { reason: 'scope', needed },
      `This access token's scopes (${auth.scopes.join(', ')}) do not allow ${doing}; it needs ${needed.join(' or ')}.`,
    );
  }
  if (!action.org) return undefined;
  const { slug, permission } = action.org;
  const membership = auth.membershipRead?.slug === slug ? auth.membershipRead.membership : await readMembership(deps, auth.user.uid, slug);
  if (!membership) throw new AccessDenied({ reason: 'organization', slug }, `Organization "${slug}" not found.`);
  const { org, role } = membership;
  if (auth.token && auth.token.organizationUid !== org.uid) {
    throw new AccessDenied({ reason: 'token-organization', org }, `This access token belongs to another organization; it cannot be used for "${slug}".`);
  }
  if (permission && !can(role, permission)) {
    throw new AccessDenied({ reason: 'role', org, role, permission }, `Your role (${role}) does not allow this (${permission}).`);
  }
  return { org, role };
}

async function readMembership(deps: Pick<AppDeps, 'db'>, userUid: string, slug: string): Promise<Membership | undefined> {
  const row = await deps.db.readOne(ORG_AND_ROLE, slug, userUid);
  if (!row) return undefined;
  const { role, ...org } = row;
  return { org, role };
}

/** Throws 403 FORBIDDEN unless `role` grants `permission`: for the checks an action makes beyond its route's permission. */
export function requirePermission(role: Role, permission: OrgPermission): void {
  if (!can(role, permission)) {
    throw forbidden(`Your role (${role}) does not allow this (${permission}).`);
  }
}

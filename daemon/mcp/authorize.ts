import type { AuthContext, Scope } from '../access/auth-context.js';
import { AccessDenied, authorize, scopesAllow, type Refusal } from '../access/authorize.js';
import { can, ROLES, type OrgPermission, type Role } from '../access/permissions.js';
import type { Organization } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import type { McpTool, ToolAccess } from './tool.js';

// Every tool call is authorized by the same function as REST routes (access/authorize.ts), from
// the database at the moment of the call: the token's scopes, the organization, and the member's
// current role there. Nothing is cached between calls, so a demotion or a removal takes effect on
// the very next one. This file only picks the organization a call acts on and words refusals.

/** Why a call was refused: the token's scope, the caller's role, or the organization. */
export type RefusalReason = 'scope' | 'role' | 'organization';

/** A refused tool call; the server answers it as a tool error carrying this message. */
export class ToolRefusal extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'ToolRefusal';
  }
}

/** Whether the credential reaches the MCP endpoint at all: it needs `mcp` or `mcp:read`. */
export const hasMcpScope = (scopes: readonly Scope[]): boolean => scopesAllow(scopes, 'mcp', false);

/** Whether the scopes allow a tool of this kind: `mcp:read` reads only, `mcp` reads and writes. */
export const scopeAllows = (scopes: readonly Scope[], access: ToolAccess): boolean => scopesAllow(scopes, 'mcp', access === 'write');

const rolesGranting = (permission: OrgPermission): string => ROLES.filter((role) => can(role, permission)).join(', ');

/** A refusal of the shared authorization, in the words of a tool call. */
function toolRefusal(refusal: Refusal, auth: AuthContext, tool: McpTool): ToolRefusal {
  switch (refusal.reason) {
    case 'scope':
      return new ToolRefusal(
        'scope',
        `Refused by the token's scope: this access token has the scopes ${auth.scopes.join(', ')}, and "${tool.name}" changes data, ` +
          'which needs a token with the "mcp" scope ("mcp:read" allows the read tools only).',
      );
    case 'role':
      return new ToolRefusal(
        'role',
        `Refused by your role: your role in organization "${refusal.org.slug}" is ${refusal.role}, which does not allow "${tool.name}" ` +
          `(it needs ${refusal.permission}, held by the roles ${rolesGranting(refusal.permission)}).`,
      );
    case 'organization':
      // The same answer for a missing organization and a foreign one, so existence never leaks.
      return new ToolRefusal('organization', `Organization "${refusal.slug}" not found, or you are not a member of it.`);
    case 'token-organization':
      return new ToolRefusal('organization', `This access token cannot act on organization "${refusal.org.slug}".`);
  }
}

/**
 * The organization a call acts on. A personal access token acts on its own organization (an
 * `org` argument, when given, must name it); a session names the organization in the required
 * `org` argument.
 */
function organizationSlug(auth: AuthContext, orgArg: string | undefined): string {
  if (!auth.token) {
    if (orgArg === undefined)
      throw new ToolRefusal('organization', 'With a session token, every organization tool needs the "org" argument: the slug of the organization to act on.');
    return orgArg;
  }
  // The token's organization was read with the token itself (authenticateRequest): not again here.
  const own = auth.membershipRead?.membership?.org;
  if (!own || own.uid !== auth.token.organizationUid) throw new ToolRefusal('organization', "This access token's organization no longer exists.");
  if (orgArg !== undefined && orgArg !== own.slug) {
    throw new ToolRefusal(
      'organization',
      `This access token belongs to organization "${own.slug}"; it cannot act on "${orgArg}". Leave out "org", or use a token of that organization.`,
    );
  }
  return own.slug;
}

/**
 * Authorizes one call of `tool`: the token's scope first, then, for organization tools, the
 * organization and the member's role read from the database now. Throws a ToolRefusal.
 */
export async function authorizeCall(deps: AppDeps, auth: AuthContext, tool: McpTool, orgArg: string | undefined): Promise<{ org?: Organization; role?: Role }> {
  const writes = tool.access === 'write';
  try {
    // The scope first: a call its token may not make is refused as such, whatever organization it names.
    await authorize(deps, auth, { surface: 'mcp', writes });
    if (!tool.permission) return {};
    return await authorize(deps, auth, { surface: 'mcp', writes, org: { slug: organizationSlug(auth, orgArg), permission: tool.permission } });
  } catch (error) {
    if (error instanceof AccessDenied) throw toolRefusal(error.refusal, auth, tool);
    throw error;
  }
}

/** The caller's current roles: in the token's organization, or in every organization of a session's user. */
async function currentRoles(deps: AppDeps, auth: AuthContext): Promise<Role[]> {
  let query = deps.db.kysely.selectFrom('members').select('role').where('user_uid', '=', auth.user.uid);
  if (auth.token) query = query.where('organization_uid', '=', auth.token.organizationUid);
  return (await query.execute()).map((row) => row.role);
}

/**
 * The tools this caller may call now, for `tools/list`. A session may act on any of its
 * organizations, so it sees a tool when some membership allows it; the call itself is then
 * authorized against the organization it names.
 */
export async function callableTools(deps: AppDeps, auth: AuthContext, tools: readonly McpTool[]): Promise<McpTool[]> {
  const roles = await currentRoles(deps, auth);
  return tools.filter((tool) => scopeAllows(auth.scopes, tool.access) && (!tool.permission || roles.some((role) => can(role, tool.permission!))));
}

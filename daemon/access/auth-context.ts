import type { Organization, Session } from '../db/schema.js';
import type { CallerAccount } from './caller-account.js';
import type { Role } from './permissions.js';

import type { Scope } from '../../contract/access.js';

export { DEFAULT_TOKEN_SCOPES, SCOPES, type Scope } from '../../contract/access.js';

/** A personal access token as the request sees it. */
export interface TokenInfo {
  uid: string;
  organizationUid: string;
  scopes: Scope[];
}

/** A user's organization and their role in it, as read for one request. */
export interface Membership {
  org: Organization;
  role: Role;
}

/**
 * Who is calling, as route handlers and MCP tools receive it: the user and the credential, and for org
 * routes the organization and the member's role read from the database for this request.
 */
export interface AuthContext {
  user: CallerAccount;
  session?: Session;
  token?: TokenInfo;
  org?: Organization;
  role?: Role;
  scopes: Scope[];
  /**
   * The caller's membership of the organization named `slug`, when it was read together with
   * the credential (the organization in the path of an org route); `membership` is undefined
   * when they are not a member.
   */
  membershipRead?: { slug: string; membership?: Membership };
}

/** The caller of an organization route: its organization and the member's role are always there. */
export interface OrgAuthContext extends AuthContext {
  org: Organization;
  role: Role;
}

import type { Organization, Session, User } from '../db/schema.js';
import type { Role } from './permissions.js';

/** Token scopes: REST (`api`, `api:read`) and MCP (`mcp`, `mcp:read`). */
export const SCOPES = ['api', 'api:read', 'mcp', 'mcp:read'] as const;
export type Scope = (typeof SCOPES)[number];
export const DEFAULT_TOKEN_SCOPES: Scope[] = ['api', 'mcp'];

/** A personal access token as the request sees it. */
export interface TokenInfo {
  uid: string;
  organizationUid: string;
  scopes: Scope[];
}

/**
 * Who is calling, in `ctx.state.auth` only: the user and the credential, and for org routes the
 * organization and the member's role read from the database for this request.
 */
export interface AuthContext {
  user: User;
  session?: Session;
  token?: TokenInfo;
  org?: Organization;
  role?: Role;
  scopes: Scope[];
}

// No imports: the contract is the ground floor that daemon, CLI and dashboard all read.

/**
 * Roles as the API names them: `owner` > `admin` > `user` > `viewer`, each including everything
 * below it (what each may do is the daemon's daemon/access/permissions.ts).
 */
export const ROLES = ['owner', 'admin', 'user', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** Token scopes: REST (`api`, `api:read`), MCP (`mcp`, `mcp:read`), and the organization's Prometheus series alone (`metrics:read`). */
export const SCOPES = ['api', 'api:read', 'mcp', 'mcp:read', 'metrics:read'] as const;
export type Scope = (typeof SCOPES)[number];

/** The scopes a token gets when none are asked for, and what a session acts with. */
export const DEFAULT_TOKEN_SCOPES: readonly Scope[] = ['api', 'mcp'];

/** Every personal access token starts with this, so scanners and people recognise one. */
export const PERSONAL_TOKEN_PREFIX = 'svc_pat_';

/** The length a new password must have, in characters (the daemon enforces it; the CLI asks again). */
export const NEW_PASSWORD_LENGTH = { min: 8, max: 1024 } as const;

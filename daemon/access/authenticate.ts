import type { Context } from 'koa';
import { authenticateSession } from '../auth/sessions.js';
import { authenticatePersonalToken, PERSONAL_TOKEN_PREFIX } from '../auth/personal-tokens.js';
import type { AppDeps } from '../deps.js';
import { unauthorized } from '../errors.js';
import { DEFAULT_TOKEN_SCOPES, type AuthContext } from './auth-context.js';

/**
 * Resolves the bearer credential of a request: a personal access token (`svc_pat_...`) or a
 * session JWT. Returns undefined when there is none; throws 401 when there is one that is not good.
 * Given `orgSlug`, a session's read also fetches the caller's membership of that organization;
 * a token's read always fetches its owner's membership of the token's organization.
 * `authorize` then uses it instead of reading it again.
 */
export async function authenticateRequest(deps: AppDeps, ctx: Context, orgSlug?: string): Promise<AuthContext | undefined> {
  const header = ctx.get('authorization');
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized('Send the token as "Authorization: Bearer <token>".');
  const credential = match[1];
  if (credential.startsWith(PERSONAL_TOKEN_PREFIX)) {
    const { user, token, membership } = await authenticatePersonalToken(deps, credential);
    return { user, token, scopes: token.scopes, membershipRead: { slug: membership.org.slug, membership } };
  }
  const { user, session, membership } = await authenticateSession(deps, credential, orgSlug);
  // A session acts with everything the member's role allows, over REST and MCP alike.
  return { user, session, scopes: [...DEFAULT_TOKEN_SCOPES], ...(orgSlug === undefined ? {} : { membershipRead: { slug: orgSlug, membership } }) };
}

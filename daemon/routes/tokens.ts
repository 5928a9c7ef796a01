import { z } from 'zod';
import { DEFAULT_TOKEN_SCOPES, SCOPES } from '../access/auth-context.js';
import { authorize } from '../access/authorize.js';
import { requireSession } from '../access/session-only.js';
import { recordAudit } from '../audit/audit-log.js';
import { mintPersonalToken } from '../auth/personal-tokens.js';
import { listPersonalTokens, revokePersonalToken } from '../auth/token-management.js';
import { validationFailed } from '../errors.js';
import { route, type RouteSpec } from '../http/route.js';
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacter } from '../plain-text.js';

const createBody = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'is required')
    .max(100, 'must be at most 100 characters')
    .refine((text) => !hasControlCharacter(text), CONTROL_CHARACTER_MESSAGE),
  org: z.string().min(1, 'is required').max(48),
  scopes: z.array(z.enum(SCOPES)).min(1, 'must list at least one scope (or be left out for api and mcp)').optional(),
  expiresAt: z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date and time, e.g. 2026-12-31T00:00:00Z' }).nullable().optional(),
});

/**
 * The caller's personal access tokens. A token acts with its owner's current role in its one
 * organization, so even a viewer may mint one (it can then only read). Managed with a session only.
 */
export const tokenRoutes: RouteSpec[] = [
  route({
    method: 'POST',
    path: '/auth/tokens',
    permission: 'authenticated',
    response: 'MintedToken',
    summary: 'Mint a personal access token for one organization; the secret is shown only in this answer.',
    body: createBody,
    status: 201,
    async handler({ deps, auth, body }) {
      requireSession(auth, 'Managing access tokens');
      // A non-member gets the same 404 as for any route of the organization.
      const { org } = await authorize(deps, auth, { surface: 'rest', writes: true, org: { slug: body.org, permission: 'own-tokens:write' } });
      const expiresAt = body.expiresAt ? new Date(body.expiresAt).toISOString() : null;
      if (expiresAt && expiresAt <= deps.clock.now().toISOString()) {
        throw validationFailed([{ path: 'expiresAt', message: 'must be in the future' }]);
      }
      const scopes = body.scopes ? SCOPES.filter((scope) => body.scopes!.includes(scope)) : [...DEFAULT_TOKEN_SCOPES];
      const minted = await mintPersonalToken(deps, { user: auth.user, organizationUid: org.uid, orgSlug: org.slug, name: body.name, scopes, expiresAt });
      await recordAudit(deps.db.kysely, deps.clock, {
        organizationUid: org.uid,
        kind: 'token.created',
        actorUid: auth.user.uid,
        targetUid: auth.user.uid,
        data: { tokenUid: minted.uid, name: minted.name, scopes, expiresAt },
      });
      return minted;
    },
  }),
  route({
    method: 'GET',
    path: '/auth/tokens',
    permission: 'authenticated',
    response: 'TokenList',
    summary: "The caller's tokens (never their secret).",
    async handler({ deps, auth }) {
      requireSession(auth, 'Managing access tokens');
      return { items: await listPersonalTokens(deps, auth.user.uid) };
    },
  }),
  route({
    method: 'DELETE',
    path: '/auth/tokens/:uid',
    permission: 'authenticated',
    summary: 'Revoke one of the caller’s tokens; it stops working at once.',
    async handler({ deps, auth, params }) {
      requireSession(auth, 'Managing access tokens');
      await revokePersonalToken(deps, auth.user.uid, params.uid);
    },
  }),
];

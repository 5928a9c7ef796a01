import type { Membership, Scope, TokenInfo } from '../access/auth-context.js';
import { MEMBERSHIP_COLUMNS, takeMembership } from '../access/membership-columns.js';
import { CALLER_ACCOUNT_COLUMNS, type CallerAccount } from '../access/caller-account.js';
import { newId } from '../db/ids.js';
import { preparedRead } from '../db/prepared-read.js';
import type { UserProfile } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { unauthorized } from '../errors.js';
import { randomToken, sha256 } from '../crypto/tokens.js';

import { PERSONAL_TOKEN_PREFIX } from '../../contract/access.js';
import type { TokenView as ContractTokenView } from '../../contract/responses.js';

export { PERSONAL_TOKEN_PREFIX };

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** A token as listed: never its secret. */
export type TokenView = ContractTokenView;

/** Mints a token; the secret is returned once and only its SHA-256 is kept. */
export async function mintPersonalToken(
  deps: Deps,
  input: { user: UserProfile; organizationUid: string; orgSlug: string; name: string; scopes: Scope[]; expiresAt: string | null },
): Promise<TokenView & { token: string }> {
  const token = PERSONAL_TOKEN_PREFIX + randomToken(32);
  const now = deps.clock.now();
  const uid = newId(now.getTime());
  await deps.db.kysely
    .insertInto('personal_tokens')
    .values({
      uid,
      token_hash: sha256(token),
      user_uid: input.user.uid,
      organization_uid: input.organizationUid,
      name: input.name,
      scopes: JSON.stringify(input.scopes),
      expires_at: input.expiresAt,
      last_used_at: null,
      revoked_at: null,
      created_at: now.toISOString(),
    })
    .execute();
  return { uid, name: input.name, org: input.orgSlug, scopes: input.scopes, expiresAt: input.expiresAt, lastUsedAt: null, createdAt: now.toISOString(), token };
}

const LAST_USED_GRANULARITY_MS = 60_000;

// One round trip on every request made with a token: the token, its owner, its organization,
// and the owner's membership of it (null columns when they are no longer a member).
const TOKEN_WITH_ACCOUNT_AND_MEMBERSHIP = preparedRead((db, tokenHash: string) =>
  db
    .selectFrom('personal_tokens')
    .innerJoin('users', 'users.uid', 'personal_tokens.user_uid')
    .innerJoin('organizations', 'organizations.uid', 'personal_tokens.organization_uid')
    .leftJoin('members', (join) =>
      join.onRef('members.organization_uid', '=', 'personal_tokens.organization_uid').onRef('members.user_uid', '=', 'personal_tokens.user_uid'),
    )
    .select(CALLER_ACCOUNT_COLUMNS)
    .select([
      'personal_tokens.uid as t_uid',
      'personal_tokens.scopes as t_scopes',
      'personal_tokens.expires_at as t_expires_at',
      'personal_tokens.last_used_at as t_last_used_at',
      'personal_tokens.revoked_at as t_revoked_at',
      ...MEMBERSHIP_COLUMNS,
    ])
    .where('personal_tokens.token_hash', '=', tokenHash),
);

/**
 * Resolves a personal access token, or throws 401: unknown, revoked, expired, or its owner is no
 * longer a member of the token's organization. Also returns that membership, read in the same query.
 */
export async function authenticatePersonalToken(deps: Deps, secret: string): Promise<{ user: CallerAccount; token: TokenInfo; membership: Membership }> {
  const row = await deps.db.readOne(TOKEN_WITH_ACCOUNT_AND_MEMBERSHIP, sha256(secret));
  const now = deps.clock.now();
  if (!row || row.t_revoked_at || (row.t_expires_at && row.t_expires_at <= now.toISOString())) {
    throw unauthorized('The access token is invalid, expired or revoked.');
  }
  const { rest, membership } = takeMembership(row);
  const { t_uid, t_scopes, t_expires_at: _expiresAt, t_last_used_at, t_revoked_at: _revokedAt, ...user } = rest;
  if (!membership) throw unauthorized('The access token no longer works: its owner is not a member of its organization.');
  if (!t_last_used_at || now.getTime() - Date.parse(t_last_used_at) > LAST_USED_GRANULARITY_MS) {
    await deps.db.kysely.updateTable('personal_tokens').set({ last_used_at: now.toISOString() }).where('uid', '=', t_uid).execute();
  }
  return {
    user,
    token: { uid: t_uid, organizationUid: membership.org.uid, scopes: JSON.parse(t_scopes) as Scope[] },
    membership,
  };
}

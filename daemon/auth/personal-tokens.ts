import type { Scope, TokenInfo } from '../access/auth-context.js';
import { newId } from '../db/ids.js';
import { preparedRead } from '../db/prepared-read.js';
import type { User } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { unauthorized } from '../errors.js';
import { randomToken, sha256 } from './secrets.js';

/** Every personal access token starts with this, so scanners and people recognise one. */
export const PERSONAL_TOKEN_PREFIX = 'svc_pat_';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** A token as listed: never its secret. */
export interface TokenView {
  uid: string;
  name: string;
  org: string;
  scopes: Scope[];
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

/** Mints a token; the secret is returned once and only its SHA-256 is kept. */
export async function mintPersonalToken(
  deps: Deps,
  input: { user: User; organizationUid: string; orgSlug: string; name: string; scopes: Scope[]; expiresAt: string | null },
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

// Read on every request made with a token.
const TOKEN_BY_HASH = preparedRead((db, tokenHash: string) => db.selectFrom('personal_tokens').selectAll().where('token_hash', '=', tokenHash));
const MEMBER_ACCOUNT = preparedRead((db, userUid: string, organizationUid: string) =>
  db
    .selectFrom('members')
    .innerJoin('users', 'users.uid', 'members.user_uid')
    .selectAll('users')
    .where('members.user_uid', '=', userUid)
    .where('members.organization_uid', '=', organizationUid),
);

/**
 * Resolves a personal access token, or throws 401: unknown, revoked, expired, or its owner is no
 * longer a member of the token's organization.
 */
export async function authenticatePersonalToken(deps: Deps, secret: string): Promise<{ user: User; token: TokenInfo }> {
  const row = await deps.db.readOne(TOKEN_BY_HASH, sha256(secret));
  const now = deps.clock.now();
  if (!row || row.revoked_at || (row.expires_at && row.expires_at <= now.toISOString())) {
    throw unauthorized('The access token is invalid, expired or revoked.');
  }
  const member = await deps.db.readOne(MEMBER_ACCOUNT, row.user_uid, row.organization_uid);
  if (!member) throw unauthorized('The access token no longer works: its owner is not a member of its organization.');
  if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) > LAST_USED_GRANULARITY_MS) {
    await deps.db.kysely.updateTable('personal_tokens').set({ last_used_at: now.toISOString() }).where('uid', '=', row.uid).execute();
  }
  return { user: member, token: { uid: row.uid, organizationUid: row.organization_uid, scopes: JSON.parse(row.scopes) as Scope[] } };
}

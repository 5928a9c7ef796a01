import type { Session as SessionAnswer } from '../../contract/responses.js';
import type { Context } from 'koa';
import { isoIn } from '../clock.js';
import type { Membership } from '../access/auth-context.js';
import { MEMBERSHIP_COLUMNS, takeMembership, type MembershipColumns } from '../access/membership-columns.js';
import { CALLER_ACCOUNT_COLUMNS, callerAccount, type CallerAccount } from '../access/caller-account.js';
import { newId } from '../db/ids.js';
import { preparedRead } from '../db/prepared-read.js';
import type { Session, User } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { unauthorized } from '../errors.js';
import { accountView } from '../accounts/account.js';
import { signHs256, verifyHs256 } from './hs256.js';
import { randomToken, sha256 } from '../crypto/tokens.js';
import type { Executor } from '../db/executor.js';

/** What sign-in returns (API.md "Session and sign-in"). */
export type SessionResponse = SessionAnswer;

type Deps = Pick<AppDeps, 'db' | 'config' | 'clock' | 'caches'>;

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * Issues a session: a row keyed by the SHA-256 of a random id, and a JWT carrying that id.
 * The row is checked on every request, so signing out server-side takes effect at once.
 */
export async function createSession(deps: Deps, user: User, method: string, ctx?: Context): Promise<SessionResponse> {
  const sessionId = randomToken(32);
  const now = deps.clock.now();
  const expiresAt = isoIn(deps.clock, deps.config.auth.sessionTtlSeconds);
  await deps.db.kysely
    .insertInto('sessions')
    .values({
      id_hash: sha256(sessionId),
      uid: newId(now.getTime()),
      user_uid: user.uid,
      method,
      client_address: ctx?.ip ?? null,
      user_agent: ctx?.get('user-agent')?.slice(0, 512) || null,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: expiresAt,
      revoked_at: null,
    })
    .execute();
  const accessToken = signHs256(deps.caches.verifiedTokens, deps.config.auth.jwtSecret, {
    sid: sessionId,
    typ: 'session',
    sub: user.uid,
    iat: seconds(now),
    exp: seconds(new Date(expiresAt)),
  });
  return { accessToken, tokenType: 'Bearer', expiresAt, user: await accountView(deps.db, callerAccount(user)) };
}

/** Signs a short-lived JWT of another kind (`mfa`, ...) that only its own endpoint accepts. */
export async function signPurposeToken(deps: Deps, typ: string, subject: string, ttlSeconds: number, claims: Record<string, unknown> = {}): Promise<string> {
  const now = deps.clock.now();
  return signHs256(deps.caches.verifiedTokens, deps.config.auth.jwtSecret, { ...claims, typ, sub: subject, iat: seconds(now), exp: seconds(now) + ttlSeconds });
}

/** Verifies a JWT of kind `typ` against the injected clock; throws 401 otherwise. */
export async function verifyPurposeToken(deps: Deps, token: string, typ: string): Promise<{ sub: string; [claim: string]: unknown }> {
  const claims = verifyHs256(deps.caches.verifiedTokens, deps.config.auth.jwtSecret, token, seconds(deps.clock.now()));
  if (!claims || claims.typ !== typ) throw unauthorized('The token is invalid or has expired.');
  return claims;
}

const LAST_SEEN_GRANULARITY_MS = 60_000;

// One round trip for the session and its account: this runs on every authenticated request.
const sessionWithAccount = (db: Executor, idHash: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.uid', 'sessions.user_uid')
    .select(CALLER_ACCOUNT_COLUMNS)
    .select([
      'sessions.id_hash as s_id_hash',
      'sessions.uid as s_uid',
      'sessions.method as s_method',
      'sessions.client_address as s_client_address',
      'sessions.user_agent as s_user_agent',
      'sessions.created_at as s_created_at',
      'sessions.last_seen_at as s_last_seen_at',
      'sessions.expires_at as s_expires_at',
      'sessions.revoked_at as s_revoked_at',
    ])
    .where('sessions.id_hash', '=', idHash);

const SESSION_WITH_ACCOUNT = preparedRead(sessionWithAccount);

// On org routes the caller's membership of the organization in the path comes in the same read.
const SESSION_WITH_ACCOUNT_AND_MEMBERSHIP = preparedRead((db, idHash: string, orgSlug: string) =>
  sessionWithAccount(db, idHash)
    .leftJoin('organizations', (join) => join.on('organizations.slug', '=', orgSlug))
    .leftJoin('members', (join) => join.onRef('members.organization_uid', '=', 'organizations.uid').onRef('members.user_uid', '=', 'users.uid'))
    .select(MEMBERSHIP_COLUMNS),
);

/**
 * Resolves a session JWT to its live session and user, or throws 401. Given `orgSlug`, also
 * reads the user's membership of that organization (undefined when there is none).
 */
export async function authenticateSession(
  deps: Deps,
  token: string,
  orgSlug?: string,
): Promise<{ user: CallerAccount; session: Session; membership?: Membership }> {
  const payload = await verifyPurposeToken(deps, token, 'session');
  if (typeof payload.sid !== 'string') throw unauthorized('The token is invalid or has expired.');
  const idHash = sha256(payload.sid);
  const row =
    orgSlug === undefined ? await deps.db.readOne(SESSION_WITH_ACCOUNT, idHash) : await deps.db.readOne(SESSION_WITH_ACCOUNT_AND_MEMBERSHIP, idHash, orgSlug);
  const now = deps.clock.now();
  if (!row || row.s_revoked_at || row.s_expires_at <= now.toISOString() || row.uid !== payload.sub) {
    throw unauthorized('The session has ended; sign in again.');
  }
  const { s_id_hash, s_uid, s_method, s_client_address, s_user_agent, s_created_at, s_last_seen_at, s_expires_at, s_revoked_at, ...rest } = row;
  const { user, membership } = splitMembership(rest);
  const session: Session = {
    id_hash: s_id_hash,
    uid: s_uid,
    user_uid: user.uid,
    method: s_method,
    client_address: s_client_address,
    user_agent: s_user_agent,
    created_at: s_created_at,
    last_seen_at: s_last_seen_at,
    expires_at: s_expires_at,
    revoked_at: s_revoked_at,
  };
  // Recording every request would turn each read into a write; a minute's precision is enough.
  if (now.getTime() - Date.parse(session.last_seen_at) > LAST_SEEN_GRANULARITY_MS) {
    await deps.db.kysely.updateTable('sessions').set({ last_seen_at: now.toISOString() }).where('id_hash', '=', session.id_hash).execute();
  }
  return { user, session, membership };
}

/** The account columns of a session row, and the membership its other columns describe, if any. */
function splitMembership(row: CallerAccount | (CallerAccount & MembershipColumns)): { user: CallerAccount; membership?: Membership } {
  if (!('m_role' in row)) return { user: row };
  const { rest, membership } = takeMembership(row);
  return { user: rest, membership };
}

/**
 * Ends sessions of a user server-side, all of them or all but one. Returns how many ended.
 * Given `trx`, they end in that transaction.
 */
export async function revokeUserSessions(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  userUid: string,
  options: { exceptIdHash?: string; trx?: Executor } = {},
): Promise<number> {
  let query = (options.trx ?? deps.db.kysely)
    .updateTable('sessions')
    .set({ revoked_at: deps.clock.now().toISOString() })
    .where('user_uid', '=', userUid)
    .where('revoked_at', 'is', null);
  if (options.exceptIdHash) query = query.where('id_hash', '!=', options.exceptIdHash);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Ends one session. */
export async function revokeSession(deps: Deps, idHash: string): Promise<void> {
  await deps.db.kysely.updateTable('sessions').set({ revoked_at: deps.clock.now().toISOString() }).where('id_hash', '=', idHash).execute();
}

import type { Context } from 'koa';
import { recordAuditInUserOrganizations } from '../audit/audit-log.js';
import { isoIn } from '../clock.js';
import type { User } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { forbidden, validationFailed } from '../errors.js';
import type { Mail } from '../mail/mailer.js';
import { dashboardLink } from '../mail/notices.js';
import { readParameter } from '../parameters.js';
import { resetLoginFailures } from '../auth/password-login.js';
import { externalAccountMail, passwordResetNotice, resetLinkMail } from './password-reset-mail.js';
import { claimUnverifiedAccount } from './claim-account.js';
import { RateLimiter } from '../limits/rate-limit.js';
import { randomToken, safeEqual, sha256 } from '../crypto/tokens.js';
import { revokeUserSessions } from '../auth/sessions.js';
import { revokeAllPersonalTokens } from '../auth/token-management.js';
import { findUser, findUserByEmail, normalizeEmail } from './users.js';
import type { Executor } from '../db/executor.js';
import { inTransaction } from '../db/in-transaction.js';

/** How long a reset link works. */
export const PASSWORD_RESET_TTL_SECONDS = 3600;

/** Reset requests allowed per e-mail address, and per client address, in one window. */
export const PASSWORD_RESET_LIMITS = { perAddress: 5, perClient: 20, windowSeconds: 3600 } as const;

/** System parameter: may an account without a password (external sign-in) set one by reset? */
export const EXTERNAL_ACCOUNTS_PARAMETER = 'auth.allow_password_for_external_accounts';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'mailer' | 'logger'>;

/** A link just issued, to mail (or hand to a super admin) once its transaction has committed. */
export interface IssuedReset {
  userUid: string;
  email: string;
  url: string;
  expiresAt: string;
}

/**
 * `{base_url}/d/reset#token=...`, the dashboard page that asks for the new password. The token
 * rides in the fragment, which browsers never send to a server nor put in a Referer.
 */
export const resetUrl = (baseUrl: string, token: string): string => dashboardLink(baseUrl, `/d/reset#token=${encodeURIComponent(token)}`);

/**
 * Whether a super admin lets accounts without a password set one through a reset. Anything but
 * `{"value": true}` means no; a value that is not a boolean is logged, since it was meant as something.
 */
export async function externalAccountsMaySetPassword(deps: Pick<AppDeps, 'db' | 'logger'>): Promise<boolean> {
  const parameter = await readParameter(deps, null, EXTERNAL_ACCOUNTS_PARAMETER);
  if (!parameter.set) return false;
  if (typeof parameter.value !== 'boolean') {
    deps.logger.warn(
      { parameter: EXTERNAL_ACCOUNTS_PARAMETER, value: parameter.malformed ?? parameter.value },
      'system parameter is not a boolean; accounts without a password may not set one',
    );
    return false;
  }
  return parameter.value;
}

/** Voids every unused link of an account (a newer link, or a reset that just happened). */
async function voidResets(db: Executor, userUid: string, now: string): Promise<void> {
  await db.updateTable('password_resets').set({ used_at: now }).where('user_uid', '=', userUid).where('used_at', 'is', null).execute();
}

/**
 * Creates a reset link for an account: 32 random bytes, of which only the SHA-256 is stored, and
 * voids the older ones so that only the newest link works. `requestedByUid` is the super admin
 * who asked, or null when the account holder did.
 */
export async function issuePasswordReset(deps: Deps, user: User, requestedByUid: string | null): Promise<IssuedReset> {
  const token = randomToken(32);
  const now = deps.clock.now().toISOString();
  const expiresAt = isoIn(deps.clock, PASSWORD_RESET_TTL_SECONDS);
  await inTransaction(deps.db.kysely, async (trx) => {
    await voidResets(trx, user.uid, now);
    await trx
      .insertInto('password_resets')
      .values({
        token_hash: sha256(token),
        user_uid: user.uid,
        email: user.email,
        requested_by_uid: requestedByUid,
        created_at: now,
        expires_at: expiresAt,
        used_at: null,
      })
      .execute();
  });
  return { userUid: user.uid, email: user.email, url: resetUrl(deps.config.baseUrl, token), expiresAt };
}

/** The mail that carries a link. */
export const resetMail = (issued: IssuedReset, byAdministrator: boolean): Mail =>
  resetLinkMail({ to: issued.email, url: issued.url, expiresAt: issued.expiresAt, byAdministrator });

/**
 * Handles `POST /auth/password-reset`. Whatever the address, the caller learns nothing: the
 * answer is the same, the rate limits count the same, and the database work differs by one
 * insert. The mail goes out after the answer, because an SMTP round trip is the one cost that
 * would tell a known address from an unknown one.
 */
export async function requestPasswordReset(deps: Deps, ctx: Context, email: string): Promise<void> {
  const address = normalizeEmail(email);
  const { perAddress, perClient, windowSeconds } = PASSWORD_RESET_LIMITS;
  const byAddress = new RateLimiter(deps, perAddress, windowSeconds);
  const byClient = new RateLimiter(deps, perClient, windowSeconds);
  const addressKey = `reset:email:${address}`;
  const clientKey = `reset:ip:${ctx.ip}`;
  // Every request counts, not only failures: each one may send a mail. Reserved atomically, the
  // client first, so a client past its limit does not use up the address's.
  await byClient.reserve(clientKey);
  await byAddress.reserve(addressKey);

  if (!deps.mailer.enabled) {
    deps.logger.warn('password reset requested, but no SMTP server is configured (SVC_SMTP_URL), so no link was sent; a super admin can issue one');
    return;
  }
  const externalAllowed = await externalAccountsMaySetPassword(deps);
  const user = await findUserByEmail(deps, address);
  let mail: Mail | undefined;
  if (user && (user.password_hash !== null || externalAllowed)) {
    mail = resetMail(await issuePasswordReset(deps, user, null), false);
  } else {
    // The voiding half of issuing, so an unknown address does nearly the same work; for an
    // account that may not set a password it also ends links from before the parameter changed.
    const now = deps.clock.now().toISOString();
    await inTransaction(deps.db.kysely, (trx) => voidResets(trx, user?.uid ?? '', now));
    if (user) mail = externalAccountMail({ to: user.email, baseUrl: deps.config.baseUrl });
  }
  if (mail) sendLater(deps, mail);
}

/** Sends after the response; the mailer logs a failed delivery and never throws. */
function sendLater(deps: Deps, mail: Mail): void {
  deps.mailer.send(mail).catch((error: unknown) => deps.logger.warn({ err: (error as Error).message }, 'password reset mail failed'));
}

const invalidLink = () =>
  validationFailed([{ path: 'token', message: 'is invalid, used or expired' }], 'The password reset link is invalid, was already used, or has expired.');

/**
 * Handles `POST /auth/password-reset/confirm`: sets the new password under the current hashing
 * policy, and in the same transaction uses up the link (and any other of the account), signs
 * out every session, and records `auth.password_reset` in each of the account's organizations.
 * Then a notice goes to the account's address. Returns the account's uid.
 */
export async function confirmPasswordReset(deps: Deps & Pick<AppDeps, 'hasher'>, token: string, newPassword: string): Promise<string> {
  const tokenHash = sha256(token);
  const found = await deps.db.kysely.selectFrom('password_resets').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  // The row is found by a hash, so the lookup's timing says nothing about the token; the
  // comparison below is constant-time all the same.
  if (!found || !safeEqual(found.token_hash, tokenHash) || found.used_at !== null || found.expires_at <= deps.clock.now().toISOString()) throw invalidLink();
  const user = await findUser(deps, found.user_uid);
  // A link mailed to an address the account no longer has must not work.
  if (!user || user.email !== found.email) throw invalidLink();
  if (user.password_hash === null && !(await externalAccountsMaySetPassword(deps))) {
    throw forbidden('This account signs in through an identity provider and may not set a password.');
  }
  // Hashing is slow: it happens before the transaction, and only for a link that looked good.
  const passwordHash = await deps.hasher.hash(newPassword);

  const now = deps.clock.now().toISOString();
  await inTransaction(deps.db.kysely, async (trx) => {
    // A conditional update claims the link, so two concurrent uses cannot both succeed.
    const claimed = await trx
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_uid')
      .executeTakeFirst();
    if (!claimed) throw invalidLink();
    await voidResets(trx, user.uid, now);
    // A mailed link proves the address; an account that never proved it is the prover's alone now.
    // (Without SMTP the link went to a super admin, which proves nothing about the address.)
    if (deps.mailer.enabled && !user.email_verified) await claimUnverifiedAccount(deps, trx, user, 'password_reset');
    const updated = await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, must_change_password: 0, updated_at: now })
      .where('uid', '=', user.uid)
      .where('email', '=', found.email)
      .returning('uid')
      .executeTakeFirst();
    if (!updated) throw invalidLink();
    await revokeUserSessions(deps, user.uid, { trx });
    // A reset is recovery: whoever had the account may have minted tokens, and they end too.
    await revokeAllPersonalTokens(trx, deps.clock, user.uid, 'password_reset');
    await recordAuditInUserOrganizations(trx, deps.clock, user.uid, {
      kind: 'auth.password_reset',
      actorUid: user.uid,
      targetUid: user.uid,
      data: { requestedBy: found.requested_by_uid ? 'super_admin' : 'self', ...(found.requested_by_uid ? { requestedByUid: found.requested_by_uid } : {}) },
    });
  });
  // Failed sign-ins before the reset should not keep the new password locked out.
  await resetLoginFailures(deps, user.email);
  deps.logger.info({ user: user.uid }, 'password reset with an e-mailed link; all sessions signed out and all personal access tokens revoked');
  if (deps.mailer.enabled) await deps.mailer.send(passwordResetNotice({ to: user.email, at: now }));
  return user.uid;
}

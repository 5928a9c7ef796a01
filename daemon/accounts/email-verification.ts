import { isoIn } from '../clock.js';
import type { User } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { validationFailed } from '../errors.js';
import { dashboardLink, verificationMail } from '../mail/notices.js';
import { RateLimiter } from '../limits/rate-limit.js';
import { randomToken, sha256 } from '../crypto/tokens.js';
import type { Executor } from '../db/executor.js';
import { inTransaction } from '../db/in-transaction.js';

/** How long a verification link works. */
export const EMAIL_VERIFICATION_TTL_SECONDS = 24 * 3600;

export type VerificationPurpose = 'registration' | 'email_change';

/** A verification to mail once the transaction that created it has committed. */
export interface PendingVerification {
  email: string;
  token: string;
  purpose: VerificationPurpose;
  expiresAt: string;
}

/**
 * Creates a verification token for the account's current address (only its SHA-256 is stored)
 * and voids any earlier unused one, so only the newest link works.
 */
export async function issueEmailVerification(
  db: Executor,
  deps: Pick<AppDeps, 'clock'>,
  input: { userUid: string; email: string; purpose: VerificationPurpose },
): Promise<PendingVerification> {
  const now = deps.clock.now().toISOString();
  await db.updateTable('email_verifications').set({ used_at: now }).where('user_uid', '=', input.userUid).where('used_at', 'is', null).execute();
  const token = randomToken(32);
  const expiresAt = isoIn(deps.clock, EMAIL_VERIFICATION_TTL_SECONDS);
  await db
    .insertInto('email_verifications')
    .values({
      token_hash: sha256(token),
      user_uid: input.userUid,
      email: input.email,
      purpose: input.purpose,
      expires_at: expiresAt,
      used_at: null,
      created_at: now,
    })
    .execute();
  return { email: input.email, token, purpose: input.purpose, expiresAt };
}

/** Mails the link (does nothing when no SMTP server is configured). */
export async function sendVerificationMail(deps: Pick<AppDeps, 'mailer' | 'config'>, pending: PendingVerification): Promise<void> {
  if (!deps.mailer.enabled) return;
  const url = dashboardLink(deps.config.baseUrl, `/d/auth/verify-email#token=${encodeURIComponent(pending.token)}`);
  await deps.mailer.send(verificationMail({ to: pending.email, url, purpose: pending.purpose, expiresAt: pending.expiresAt }));
}

const INVALID = () =>
  validationFailed([{ path: 'token', message: 'is invalid, used or expired' }], 'The verification link is invalid, was already used, or has expired.');

/**
 * Consumes a verification token: the account's address becomes verified, provided the token was
 * issued for the address the account has now. Returns the account and why the link was sent.
 */
export async function consumeEmailVerification(deps: Pick<AppDeps, 'db' | 'clock'>, token: string): Promise<{ user: User; purpose: VerificationPurpose }> {
  const now = deps.clock.now().toISOString();
  return inTransaction(deps.db.kysely, async (trx) => {
    // Claiming the row with a conditional update makes a link single-use even under concurrency.
    const claimed = await trx
      .updateTable('email_verifications')
      .set({ used_at: now })
      .where('token_hash', '=', sha256(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
    if (!claimed) throw INVALID();
    const user = await trx
      .updateTable('users')
      .set({ email_verified: 1, updated_at: now })
      .where('uid', '=', claimed.user_uid)
      .where('email', '=', claimed.email)
      .returningAll()
      .executeTakeFirst();
    if (!user) throw INVALID();
    return { user, purpose: claimed.purpose as VerificationPurpose };
  });
}

/** Failed verification attempts allowed per client address in one window. */
export const VERIFY_EMAIL_LIMITS = { perClient: 20, windowSeconds: 900 } as const;

/**
 * `consumeEmailVerification` under a per-client limit: the attempt is reserved first (429 past
 * the limit), a bad token stays counted and a good one is given back, so guessing stays slow.
 */
export async function verifyEmailFromClient(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  client: string,
  token: string,
): Promise<{ user: User; purpose: VerificationPurpose }> {
  const limiter = new RateLimiter(deps, VERIFY_EMAIL_LIMITS.perClient, VERIFY_EMAIL_LIMITS.windowSeconds);
  const key = `verify-email:ip:${client}`;
  await limiter.reserve(key);
  const verified = await consumeEmailVerification(deps, token);
  await limiter.release(key);
  return verified;
}

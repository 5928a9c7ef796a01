import type { Context } from 'koa';
import type { User } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { joinByEmailPattern } from '../orgs/email-pattern.js';
import { issueEmailVerification, sendVerificationMail, type VerificationPurpose } from './email-verification.js';
import { RateLimiter } from '../limits/rate-limit.js';

/**
 * Reserves one registration for the client before the slow work (hashing, the pattern checks):
 * `SVC_AUTH_REGISTER_RATE_LIMIT` per client address per hour, refused or not, since even a
 * 409 `EMAIL_TAKEN` tells whether an address has an account.
 */
export async function reserveRegistration(deps: Pick<AppDeps, 'db' | 'clock' | 'config'>, ctx: Context): Promise<void> {
  await new RateLimiter(deps, deps.config.auth.registerRateLimit, 3600).reserve(`register:ip:${ctx.ip}`);
}

/**
 * What follows a password sign-up. Organizations whose `registration.email_pattern` matches the
 * address admit the new account as `user`. The address is only a claim until verified, so when
 * the daemon can send mail the join waits for the verification link (anyone could otherwise
 * sign up as someone@their-company and walk in); with no SMTP configured nothing can be verified
 * and the join happens at once.
 */
export async function afterRegistration(deps: AppDeps, user: User): Promise<void> {
  if (deps.mailer.enabled && user.email_verified !== 1) {
    const pending = await issueEmailVerification(deps.db.kysely, deps, { userUid: user.uid, email: user.email, purpose: 'registration' });
    await sendVerificationMail(deps, pending);
    return;
  }
  await joinByEmailPattern(deps, user);
}

/** What follows a verified address: the sign-up's pattern join, when it was waiting for it. */
export async function afterEmailVerified(deps: AppDeps, user: User, purpose: VerificationPurpose): Promise<void> {
  if (purpose === 'registration') await joinByEmailPattern(deps, user);
}

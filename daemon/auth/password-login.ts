import type { Context } from 'koa';
import type { User } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { unauthorized } from '../errors.js';
import { RateLimiter } from './rate-limit.js';
import { findUserByEmail, normalizeEmail } from './users.js';

const WRONG = 'The e-mail address or the password is wrong.';

/** The rate-limit key counting failed sign-ins to an e-mail address. */
const loginEmailKey = (email: string) => `login:email:${email}`;

/** The failed-sign-in limits: one per e-mail address, a looser one per client address. */
export function loginLimiters(deps: AppDeps, ctx: Context, email: string) {
  const { max, maxPerClient, windowSeconds } = deps.config.auth.loginRateLimit;
  const byEmail = new RateLimiter(deps, max, windowSeconds);
  const byClient = new RateLimiter(deps, maxPerClient, windowSeconds);
  const emailKey = loginEmailKey(email);
  const clientKey = `login:ip:${ctx.ip}`;
  return {
    check: async () => {
      await byEmail.check(emailKey);
      await byClient.check(clientKey);
    },
    fail: () => byEmail.hit(emailKey, clientKey),
    succeed: () => byEmail.reset(emailKey),
  };
}

/** Forgets the failed sign-ins counted against an e-mail address (after a password reset). */
export async function resetLoginFailures(deps: Pick<AppDeps, 'db' | 'clock' | 'config'>, email: string): Promise<void> {
  const { max, windowSeconds } = deps.config.auth.loginRateLimit;
  await new RateLimiter(deps, max, windowSeconds).reset(loginEmailKey(email));
}

/**
 * Checks an e-mail and password. An unknown address and a wrong password answer the same error
 * after the same work (a dummy hash is verified), and failures count towards the rate limit.
 * On success a hash that no longer matches the policy is transparently re-hashed.
 */
export async function verifyPasswordLogin(deps: AppDeps, ctx: Context, email: string, password: string): Promise<User> {
  const address = normalizeEmail(email);
  const limits = loginLimiters(deps, ctx, address);
  await limits.check();
  const user = await findUserByEmail(deps, address);
  const ok = user?.password_hash ? await deps.hasher.verify(user.password_hash, password) : await deps.hasher.verifyDummy(password);
  if (!user || !ok) {
    await limits.fail();
    throw unauthorized(WRONG);
  }
  await limits.succeed();
  return rehashIfNeeded(deps, user, password);
}

/** Verifies the current password of a signed-in user (401 when wrong, counted like a failed sign-in). */
export async function verifyCurrentPassword(deps: AppDeps, ctx: Context, user: User, password: string): Promise<void> {
  const limits = loginLimiters(deps, ctx, user.email);
  await limits.check();
  if (!user.password_hash || !(await deps.hasher.verify(user.password_hash, password))) {
    await limits.fail();
    throw unauthorized('The current password is wrong.');
  }
}

async function rehashIfNeeded(deps: AppDeps, user: User, password: string): Promise<User> {
  if (!user.password_hash || !deps.hasher.needsRehash(user.password_hash)) return user;
  const fresh = await deps.hasher.hash(password);
  // Only replace the hash that was verified: a concurrent password change wins.
  await deps.db.kysely
    .updateTable('users')
    .set({ password_hash: fresh, updated_at: deps.clock.now().toISOString() })
    .where('uid', '=', user.uid)
    .where('password_hash', '=', user.password_hash)
    .execute();
  deps.logger.info({ user: user.uid }, 'password re-hashed under the current policy');
  return { ...user, password_hash: fresh };
}

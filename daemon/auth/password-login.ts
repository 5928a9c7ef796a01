import type { Context } from 'koa';
import type { User } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { unauthorized } from '../errors.js';
import { RateLimiter } from './rate-limit.js';
import { findUserByEmail, normalizeEmail } from './users.js';

const WRONG = 'The e-mail address or the password is wrong.';

/** The failed-sign-in limiter: per e-mail address and per client address. */
export const loginLimiter = (deps: AppDeps): RateLimiter =>
  new RateLimiter(deps, deps.config.auth.loginRateLimit.max, deps.config.auth.loginRateLimit.windowSeconds);

/**
 * Checks an e-mail and password. An unknown address and a wrong password answer the same error
 * after the same work (a dummy hash is verified), and failures count towards the rate limit.
 * On success a hash that no longer matches the policy is transparently re-hashed.
 */
export async function verifyPasswordLogin(deps: AppDeps, ctx: Context, email: string, password: string): Promise<User> {
  const address = normalizeEmail(email);
  const limiter = loginLimiter(deps);
  const keys = [`login:email:${address}`, `login:ip:${ctx.ip}`];
  await limiter.check(...keys);
  const user = await findUserByEmail(deps, address);
  const ok = user?.password_hash ? await deps.hasher.verify(user.password_hash, password) : await deps.hasher.verifyDummy(password);
  if (!user || !ok) {
    await limiter.hit(...keys);
    throw unauthorized(WRONG);
  }
  await limiter.reset(keys[0]);
  return rehashIfNeeded(deps, user, password);
}

/** Verifies the current password of a signed-in user (401 when wrong, counted like a failed sign-in). */
export async function verifyCurrentPassword(deps: AppDeps, ctx: Context, user: User, password: string): Promise<void> {
  const limiter = loginLimiter(deps);
  const keys = [`login:email:${user.email}`, `login:ip:${ctx.ip}`];
  await limiter.check(...keys);
  if (!user.password_hash || !(await deps.hasher.verify(user.password_hash, password))) {
    await limiter.hit(...keys);
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

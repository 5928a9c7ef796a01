import type { Context } from 'koa';
import type { User } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { unauthorized } from '../errors.js';
import { ldapSignIn } from './ldap/ldap-login.js';
import { RateLimiter } from '../limits/rate-limit.js';
import { findUserByEmail, normalizeEmail } from '../accounts/users.js';

const WRONG = 'The e-mail address or the password is wrong.';

/** The rate-limit key of an account from all clients together (the slower, global back-off). */
const accountKey = (email: string) => `login:email:${email}`;
/** The prefix of the keys of an account from one client each. */
const pairPrefix = (email: string) => `login:pair:${email}|`;

/**
 * The sign-in limits of one attempt, reserved before the password is hashed. Failures count per
 * account and client pair (`max`), so one client's wrong passwords lock the account for that
 * client only; per client (`maxPerClient`, one client spraying many accounts); and per account
 * from all clients (`maxPerAccount`, higher: the slow global back-off). The narrowest key is
 * reserved first, so an attempt refused there counts nowhere else. A good password gives its
 * reservations back and clears its pair.
 */
export function loginLimiters(deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>, ctx: Context, email: string) {
  const { max, maxPerClient, maxPerAccount, windowSeconds } = deps.config.auth.loginRateLimit;
  const client = ctx.ip;
  const limits = [
    { key: `${pairPrefix(email)}${client}`, limiter: new RateLimiter(deps, max, windowSeconds), scope: 'account and client' },
    { key: `login:ip:${client}`, limiter: new RateLimiter(deps, maxPerClient, windowSeconds), scope: 'client' },
    { key: accountKey(email), limiter: new RateLimiter(deps, maxPerAccount, windowSeconds), scope: 'account' },
  ];
  return {
    reserve: async () => {
      for (const { key, limiter, scope } of limits) {
        const { place, refusal } = await limiter.attempt(key);
        if (!refusal) continue;
        // Logged once per window and scope, when the limit is first crossed.
        if (place === limiter.max + 1) deps.logger.warn({ email, client, scope, window: windowSeconds }, 'sign-in locked: too many failed attempts');
        throw refusal;
      }
    },
    fail: () => {
      deps.logger.warn({ email, client }, 'failed sign-in');
    },
    succeed: async () => {
      await limits[0].limiter.reset(limits[0].key);
      await limits[1].limiter.release(limits[1].key);
      await limits[2].limiter.release(limits[2].key);
    },
  };
}

/** Forgets the failed sign-ins counted against an e-mail address (after a password reset). */
export async function resetLoginFailures(deps: Pick<AppDeps, 'db' | 'clock' | 'config'>, email: string): Promise<void> {
  const { max, windowSeconds } = deps.config.auth.loginRateLimit;
  const limiter = new RateLimiter(deps, max, windowSeconds);
  await limiter.reset(accountKey(email));
  await limiter.resetPrefix(pairPrefix(email));
}

/**
 * Checks an e-mail and password. An unknown address and a wrong password answer the same error
 * after the same work (a dummy hash is verified). The attempt is reserved under the rate limits
 * before the hash (so parallel attempts cannot all slip under the limit); failures are logged.
 * On success a hash that no longer matches the policy is transparently re-hashed.
 */
export async function verifyPasswordLogin(deps: AppDeps, ctx: Context, email: string, password: string): Promise<User> {
  return (await verifyLogin(deps, ctx, email, password)).user;
}

/**
 * {@link verifyPasswordLogin}, and the method that vouched: an address with no local password is
 * checked against the LDAP directory when one is configured (daemon/auth/ldap), under the same
 * limits and with the same answer for a wrong password.
 */
export async function verifyLogin(deps: AppDeps, ctx: Context, email: string, password: string): Promise<{ user: User; method: 'password' | 'ldap' }> {
  const address = normalizeEmail(email);
  const limits = loginLimiters(deps, ctx, address);
  await limits.reserve();
  const user = await findUserByEmail(deps, address);
  if (!user?.password_hash && deps.config.auth.ldap) {
    const fromDirectory = await ldapSignIn(deps, address, password);
    if (!fromDirectory) {
      limits.fail();
      throw unauthorized(WRONG);
    }
    await limits.succeed();
    return { user: fromDirectory, method: 'ldap' };
  }
  const ok = user?.password_hash ? await deps.hasher.verify(user.password_hash, password) : await deps.hasher.verifyDummy(password);
  if (!user || !ok) {
    limits.fail();
    throw unauthorized(WRONG);
  }
  await limits.succeed();
  return { user: await rehashIfNeeded(deps, user, password), method: 'password' };
}

/**
 * Verifies the current password of a signed-in user (401 when wrong, counted like a failed
 * sign-in). The hash is read here: requests do not carry it.
 */
export async function verifyCurrentPassword(deps: AppDeps, ctx: Context, user: Pick<User, 'uid' | 'email'>, password: string): Promise<void> {
  const limits = loginLimiters(deps, ctx, user.email);
  await limits.reserve();
  const stored = await deps.db.kysely.selectFrom('users').select('password_hash').where('uid', '=', user.uid).executeTakeFirst();
  if (!stored?.password_hash || !(await deps.hasher.verify(stored.password_hash, password))) {
    limits.fail();
    throw unauthorized('The current password is wrong.');
  }
  await limits.succeed();
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

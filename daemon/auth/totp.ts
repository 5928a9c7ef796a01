import { generateSecret, generateURI, verify } from 'otplib';
import type { AppDeps } from '../deps.js';
import { unauthorized } from '../errors.js';
import { RateLimiter } from '../limits/rate-limit.js';

/** RFC 6238 defaults, which every authenticator app understands. */
export const TOTP_PERIOD_SECONDS = 30;
const ISSUER = 'svc';

/** Wrong codes allowed per account in the window, across verify, confirm and disable. */
const MAX_FAILURES = 5;
const FAILURE_WINDOW_SECONDS = 300;

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** A new TOTP secret (160 bits, base32) and its otpauth URI for authenticator apps. */
export function newTotpSecret(accountEmail: string): { secret: string; otpauthUri: string } {
  const secret = generateSecret({ length: 20 });
  return { secret, otpauthUri: generateURI({ issuer: ISSUER, label: accountEmail, secret, period: TOTP_PERIOD_SECONDS, digits: 6, algorithm: 'sha1' }) };
}

/** The per-account limiter of wrong second-factor codes. */
export const secondFactorLimiter = (deps: Deps) => new RateLimiter(deps, MAX_FAILURES, FAILURE_WINDOW_SECONDS);
export const secondFactorKey = (userUid: string) => `2fa:user:${userUid}`;

/**
 * Checks a 6-digit code against a secret at the injected clock, one time step either side, and
 * records its time step: a step accepted once (or older than one already accepted) is refused,
 * so a code seen over a shoulder cannot be replayed within its window. The insert on the
 * (user, step) primary key makes this hold across concurrent requests and replicas.
 */
export async function acceptTotpCode(deps: Deps, userUid: string, secret: string, code: string): Promise<boolean> {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return false;
  const epoch = Math.floor(deps.clock.now().getTime() / 1000);
  let result;
  try {
    result = await verify({ secret, token, epoch, period: TOTP_PERIOD_SECONDS, epochTolerance: TOTP_PERIOD_SECONDS });
  } catch {
    return false;
  }
  if (!result.valid || !('timeStep' in result)) return false;
  const step = result.timeStep;
  const latest = await deps.db.kysely
    .selectFrom('totp_used_steps')
    .select((eb) => eb.fn.max('step').as('step'))
    .where('user_uid', '=', userUid)
    .executeTakeFirst();
  if (latest?.step != null && Number(latest.step) >= step) return false;
  const inserted = await deps.db.kysely
    .insertInto('totp_used_steps')
    .values({ user_uid: userUid, step, used_at: deps.clock.now().toISOString() })
    .onConflict((oc) => oc.columns(['user_uid', 'step']).doNothing())
    .returning('step')
    .executeTakeFirst();
  if (!inserted) return false;
  // Only the newest step matters for the check above; older rows are history.
  await deps.db.kysely.deleteFrom('totp_used_steps').where('user_uid', '=', userUid).where('step', '<', step).execute();
  return true;
}

/**
 * Runs one second-factor check under the per-account limit: each attempt is reserved first (429
 * past the limit), a wrong code answers 401 and stays counted, and a success clears the count.
 */
export async function limitedSecondFactor(deps: Deps, userUid: string, check: () => Promise<boolean>): Promise<void> {
  const limiter = secondFactorLimiter(deps);
  const key = secondFactorKey(userUid);
  // Reserved before the check, so parallel guesses cannot all slip under the limit.
  await limiter.reserve(key);
  if (!(await check())) throw unauthorized('The two-factor code is wrong or was already used.');
  await limiter.reset(key);
}

import type { Context } from 'koa';
import type { AppDeps } from '../deps.js';
import { readRawBody } from '../http/body.js';
import { RateLimiter } from '../limits/rate-limit.js';
import { pingMessage, recordPing, type PingOutcome, type PingSignal } from '../runner/heartbeat-pings.js';

// The one path of every ping URL, svc's own and the URL shapes of other tools alike: the same
// rate limits, the same recording. Only the answer differs, and each URL writes its own.

/** Unknown ping tokens allowed per client address per minute before 429. */
const UNKNOWN_TOKENS_PER_MINUTE = 30;

/** The largest request body a ping accepts (413 beyond); its first PING_BODY_LIMIT bytes are kept. */
const PING_BODY_MAX = 100_000;

/** The rate limiters of ping URLs: unknown tokens per client, and recorded pings per check. */
const limiterOf = (deps: AppDeps) =>
  (deps.caches.pingLimiter ??= {
    unknown: new RateLimiter(deps, UNKNOWN_TOKENS_PER_MINUTE, 60),
    perCheck: new RateLimiter(deps, 1, deps.config.runner.heartbeatPingIntervalSeconds),
  });

/** A run's start and its end are counted apart, so a job that starts and ends within the interval records both. */
const limitKind = (signal: PingSignal) => (signal.kind === 'start' || signal.kind === 'log' ? signal.kind : 'end');

/**
 * Records a ping of `token` from the client of `ctx`. Unknown tokens answer undefined and are
 * counted per client (30 a minute, then 429), so tokens cannot be guessed at speed; a check
 * records one ping of a kind per SVC_HEARTBEAT_PING_INTERVAL: one sooner throws the 429
 * RATE_LIMITED AppError, unrecorded.
 */
export async function receivePing(deps: AppDeps, ctx: Context, token: string, signal: PingSignal): Promise<PingOutcome> {
  const key = `ping:ip:${ctx.ip}`;
  const limiter = limiterOf(deps);
  await limiter.unknown.check(key);
  const outcome = await recordPing(deps.db, token, signal, deps.clock.now().getTime(), (checkUid) =>
    limiter.perCheck.reserve(`ping:check:${checkUid}:${limitKind(signal)}`),
  );
  // Counted only when the token is unknown: a job pinging its own URL never uses up the limit.
  if (!outcome) await limiter.unknown.attempt(key);
  return outcome;
}

/** The text a job sent in the body of a POST (empty for other methods), as a ping's message. */
export async function pingBody(ctx: Context, token: string): Promise<string | undefined> {
  if (ctx.method !== 'POST' && ctx.method !== 'PUT') return undefined;
  const body = await readRawBody(ctx, PING_BODY_MAX);
  return body.length === 0 ? undefined : pingMessage(body, token) || undefined;
}

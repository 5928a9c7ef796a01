import { RateLimiter } from '../limits/rate-limit.js';
import type { AppDeps } from '../deps.js';
import { notFound } from '../errors.js';
import { recordPing } from '../runner/heartbeat.js';
import type { PingAnswer } from '../../contract/responses.js';
import { route, type PublicCall, type RouteSpec } from '../http/route.js';

/** Unknown ping tokens allowed per client address per minute before 429. */
const UNKNOWN_TOKENS_PER_MINUTE = 30;

/** The rate limiters of ping URLs: unknown tokens per client, and recorded pings per check. */
const limiterOf = (deps: AppDeps) =>
  (deps.caches.pingLimiter ??= {
    unknown: new RateLimiter(deps, UNKNOWN_TOKENS_PER_MINUTE, 60),
    perCheck: new RateLimiter(deps, 1, deps.config.runner.heartbeatPingIntervalSeconds),
  });

/**
 * Records a ping; unknown tokens are 404 and counted per client, so tokens cannot be guessed at
 * speed. A check records one ping per SVC_HEARTBEAT_PING_INTERVAL: one sooner is 429, unrecorded.
 */
async function ping({ ctx, deps, params }: PublicCall<unknown, PingPath>, kind: 'up' | 'fail'): Promise<PingAnswer> {
  const key = `ping:ip:${ctx.ip}`;
  const limiter = limiterOf(deps);
  await limiter.unknown.check(key);
  const outcome = await recordPing(deps.db, params.token, kind, deps.clock.now().getTime(), (checkUid) => limiter.perCheck.reserve(`ping:check:${checkUid}`));
  if (!outcome) {
    // Counted only when the token is unknown: a job pinging its own URL never uses up the limit.
    await limiter.unknown.attempt(key);
    throw notFound('No heartbeat check has this ping URL.');
  }
  return { ok: true, recorded: outcome === 'recorded' };
}

type PingPath = '/ping/:token' | '/ping/:token/fail';

const pingRoute = (method: 'GET' | 'POST', path: PingPath, kind: 'up' | 'fail', summary: string): RouteSpec =>
  route({ method, path, permission: 'public', response: 'PingAnswer', summary, handler: (call) => ping(call, kind) });

/** The heartbeat ping URLs: the monitored job calls them, with no other credential than the token. */
export const pingRoutes: RouteSpec[] = [
  pingRoute('GET', '/ping/:token', 'up', 'Heartbeat ping (GET or HEAD): records an up result for the check of this token.'),
  pingRoute('POST', '/ping/:token', 'up', 'Heartbeat ping: records an up result for the check of this token.'),
  pingRoute('GET', '/ping/:token/fail', 'fail', 'Heartbeat failure report: records a down result for the check of this token.'),
  pingRoute('POST', '/ping/:token/fail', 'fail', 'Heartbeat failure report: records a down result for the check of this token.'),
];

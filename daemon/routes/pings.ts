import type { Context } from 'koa';
import type { AppDeps } from '../deps.js';
import { AppError, notFound } from '../errors.js';
import { pingBody, receivePing } from '../pings/receive-ping.js';
import type { PingSignal } from '../runner/heartbeat-pings.js';
import type { PingAnswer } from '../../contract/responses.js';
import { route, type RouteSpec } from '../http/route.js';

/** The exit status in a ping URL: a whole number from 0 to 255, as a shell reports it. */
function exitStatusOf(text: string): number {
  if (!/^\d{1,3}$/.test(text) || Number(text) > 255) {
    throw new AppError('VALIDATION_FAILED', 'The exit status in a ping URL is a whole number from 0 to 255.', {
      issues: [{ path: 'exitStatus', message: 'expected 0 to 255' }],
    });
  }
  return Number(text);
}

/**
 * Records a ping; unknown tokens are 404 and counted per client, so tokens cannot be guessed at
 * speed. A check records one ping of a kind per SVC_HEARTBEAT_PING_INTERVAL: one sooner is 429, unrecorded.
 */
async function ping(ctx: Context, deps: AppDeps, token: string, signal: PingSignal): Promise<PingAnswer> {
  const message = await pingBody(ctx, token);
  const outcome = await receivePing(deps, ctx, token, { ...signal, ...(message ? { message } : {}) });
  if (!outcome) throw notFound('No heartbeat check has this ping URL.');
  return { ok: true, recorded: outcome === 'recorded' };
}

type SignalPath = '/ping/:token' | '/ping/:token/fail' | '/ping/:token/start' | '/ping/:token/log';

const SIGNALS: ReadonlyArray<[SignalPath, PingSignal['kind'], string]> = [
  ['/ping/:token', 'success', 'Heartbeat ping (GET, HEAD or POST): records an up result for the check of this token; ends a run under way.'],
  ['/ping/:token/fail', 'fail', 'Heartbeat failure report (GET, HEAD or POST): records a down result for the check of this token.'],
  ['/ping/:token/start', 'start', 'Heartbeat run start (GET, HEAD or POST): the run is down when it does not end within the grace time.'],
  ['/ping/:token/log', 'log', 'Heartbeat log line (GET, HEAD or POST): accepted, changes nothing.'],
];

const EXIT_STATUS_SUMMARY = 'Heartbeat exit status (GET, HEAD or POST): 0 records up, 1 to 255 down, for the check of this token; ends a run under way.';

/**
 * The heartbeat ping URLs: the monitored job calls them, with no other credential than the
 * token. A POST body (its first 10 kB) is the result's message. The literal paths come before
 * the exit status, so `/fail` is never read as one.
 */
export const pingRoutes: RouteSpec[] = [
  ...SIGNALS.flatMap(([path, kind, summary]) =>
    (['GET', 'POST'] as const).map((method) =>
      route({
        method,
        path,
        permission: 'public',
        response: 'PingAnswer',
        summary,
        handler: ({ ctx, deps, params }) => ping(ctx, deps, params.token, { kind }),
      }),
    ),
  ),
  ...(['GET', 'POST'] as const).map((method) =>
    route({
      method,
      path: '/ping/:token/:exitStatus',
      permission: 'public',
      response: 'PingAnswer',
      summary: EXIT_STATUS_SUMMARY,
      handler: ({ ctx, deps, params }) => {
        const exitStatus = exitStatusOf(params.exitStatus);
        return ping(ctx, deps, params.token, { kind: exitStatus === 0 ? 'success' : 'fail', exitStatus });
      },
    }),
  ),
];

import type { Context, Middleware } from 'koa';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors.js';
import { PING_BODY_LIMIT, type PingSignal } from '../runner/heartbeat-pings.js';
import { pingBody, receivePing } from './receive-ping.js';

// The ping URLs of the tools checks are imported from, so that a job moved here changes only
// the host of its URL: Uptime Kuma's push URL and Healthchecks.io's ping URLs by UUID. Each
// answers as the original does (status code and body), on the same path as svc's own pings
// (receive-ping.ts): the same rate limits, the same recording.

/** Uptime Kuma 2.x: `/api/push/{pushToken}?status=up|down&msg=&ping=`, any method. */
const KUMA_PUSH = /^\/api\/push\/([^/]+)\/?$/;

/** Healthchecks.io: `/ping/{uuid}` and `/ping/{uuid}/start|fail|log|{exit status}`. */
const HEALTHCHECKS_PING = /^\/ping\/([^/]+)(?:\/([^/]+))?\/?$/;

/** Kuma's largest `ping` value (server/routers/api-router.js): about 3 years in ms. */
const KUMA_MAX_PING_MS = 100_000_000_000;

const decoded = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
};

/** A 429 answered in the tool's shape, with its Retry-After. */
function rateLimited(ctx: Context, error: unknown): boolean {
  if (!(error instanceof AppError) || error.code !== 'RATE_LIMITED') return false;
  for (const [name, value] of Object.entries(error.headers ?? {})) ctx.set(name, value);
  ctx.status = 429;
  return true;
}

function kumaAnswer(ctx: Context, status: number, body: { ok: boolean; msg?: string }): void {
  ctx.status = status;
  ctx.body = body;
}

/**
 * Kuma's push: `status` other than `up` is down (as in Kuma), `msg` is the message (Kuma's
 * default "OK" reads as svc's "ok"), `ping` the latency in ms. It answers `{"ok":true}`, or 404
 * `{"ok":false,"msg":...}` with Kuma's own words for an unknown or paused monitor and a bad `ping`.
 */
async function kumaPush(deps: AppDeps, ctx: Context, token: string): Promise<void> {
  const status = !ctx.query.status || ctx.query.status === 'up' ? 'success' : 'fail';
  const msg = typeof ctx.query.msg === 'string' && ctx.query.msg !== '' ? ctx.query.msg : undefined;
  const ping = typeof ctx.query.ping === 'string' ? Number.parseFloat(ctx.query.ping) : Number.NaN;
  const latencyMs = Number.isNaN(ping) || ping === 0 ? undefined : ping;
  if (latencyMs !== undefined && (latencyMs < 0 || latencyMs > KUMA_MAX_PING_MS)) {
    return kumaAnswer(ctx, 404, { ok: false, msg: `Invalid ping value. Must be between 0 and ${KUMA_MAX_PING_MS} ms.` });
  }
  const signal: PingSignal = { kind: status, ...(msg && msg !== 'OK' ? { message: msg } : {}), ...(latencyMs !== undefined ? { latencyMs } : {}) };
  try {
    const outcome = await receivePing(deps, ctx, token, signal);
    if (outcome === 'recorded') return kumaAnswer(ctx, 200, { ok: true });
    return kumaAnswer(ctx, 404, { ok: false, msg: 'Monitor not found or not active.' });
  } catch (error) {
    if (!rateLimited(ctx, error)) throw error;
    ctx.body = { ok: false, msg: 'Too many requests.' };
  }
}

/** The signal of a Healthchecks.io ping URL's last segment, or a word of the answer when it has none. */
function healthchecksSignal(action: string | undefined): PingSignal | 'invalid url format' | 'not found' {
  if (action === undefined) return { kind: 'success' };
  if (action === 'start' || action === 'fail' || action === 'log') return { kind: action };
  if (!/^\d+$/.test(action)) return 'not found';
  const exitStatus = Number(action);
  if (exitStatus > 255) return 'invalid url format';
  return { kind: exitStatus === 0 ? 'success' : 'fail', exitStatus };
}

function textAnswer(ctx: Context, status: number, text: string): void {
  ctx.status = status;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = text;
}

/**
 * Healthchecks.io's pings by UUID (its docs, "Pinging API"): HEAD, GET or POST; 200 "OK" (a
 * paused check too), 404 "not found", 400 "invalid url format" for an exit status over 255,
 * with `Access-Control-Allow-Origin: *` and `Ping-Body-Limit`. Slug URLs (ping key and slug)
 * have no counterpart here and answer 404.
 */
async function healthchecksPing(deps: AppDeps, ctx: Context, token: string, action: string | undefined): Promise<void> {
  ctx.set('Access-Control-Allow-Origin', '*');
  const signal = healthchecksSignal(action);
  if (typeof signal === 'string') return textAnswer(ctx, signal === 'not found' ? 404 : 400, signal);
  try {
    const message = await pingBody(ctx, token);
    const outcome = await receivePing(deps, ctx, token, { ...signal, ...(message ? { message } : {}) });
    if (!outcome) return textAnswer(ctx, 404, 'not found');
    ctx.set('Ping-Body-Limit', String(PING_BODY_LIMIT));
    textAnswer(ctx, 200, 'OK');
  } catch (error) {
    if (!rateLimited(ctx, error)) throw error;
    textAnswer(ctx, 429, 'rate limited');
  }
}

/** The ping URLs of Uptime Kuma and Healthchecks.io, outside the API and before the dashboard. */
export function foreignPingUrls(deps: AppDeps): Middleware {
  return async (ctx, next) => {
    const kuma = KUMA_PUSH.exec(ctx.path);
    if (kuma) {
      const token = decoded(kuma[1]);
      return token === undefined ? kumaAnswer(ctx, 404, { ok: false, msg: 'Monitor not found or not active.' }) : kumaPush(deps, ctx, token);
    }
    const hc = HEALTHCHECKS_PING.exec(ctx.path);
    if (!hc || !['GET', 'HEAD', 'POST'].includes(ctx.method)) return next();
    const token = decoded(hc[1]);
    if (token === undefined) return textAnswer(ctx, 404, 'not found');
    return healthchecksPing(deps, ctx, token, hc[2] === undefined ? undefined : decoded(hc[2]));
  };
}

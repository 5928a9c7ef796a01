import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Lifecycle } from '../lifecycle.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import { countSignIn } from '../metrics/sign-in-metrics.js';

// A caller's own request id is kept when it is short and plain, so it can be followed across services.
const INCOMING_ID = /^[\w.:-]{1,128}$/;

/**
 * Mounted outermost: gives every request an id (`X-Request-Id`), counts it in and out for a clean
 * shutdown, and when it ends writes one access-log line and one metrics observation. Both name the
 * route template (`/api/v1/orgs/:org/checks`), never the path, which may carry a token, and never a body.
 */
export function requestLog(logger: Logger, metrics: Metrics, lifecycle: Lifecycle): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('x-request-id');
    const requestId = INCOMING_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    lifecycle.enter();
    try {
      await next();
    } finally {
      lifecycle.leave();
      // Draining: this answer is the connection's last, so keep-alive clients reconnect elsewhere.
      if (lifecycle.draining && !ctx.headerSent) ctx.set('Connection', 'close');
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? (ctx.path.startsWith('/api/') ? '(unmatched)' : '(dashboard)');
      const status = ctx.status;
      metrics.httpRequests.observe({ method: ctx.method, route, status: String(status) }, seconds);
      countSignIn(metrics, ctx, route);
      logger.info({ requestId, method: ctx.method, route, status, ms: Math.round(seconds * 10_000) / 10 }, 'request');
    }
  };
}

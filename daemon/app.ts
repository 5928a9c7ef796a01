import Router from '@koa/router';
import Koa from 'koa';
import type { AppDeps } from './deps.js';
import { clientAddress } from './http/client-address.js';
import { dashboardStatic } from './http/dashboard-static.js';
import { errorMiddleware, isApiPath } from './http/error-middleware.js';
import { refuseNulBytes } from './http/nul-bytes.js';
import { requestLog } from './http/request-log.js';
import { apiMethods } from './http/api-methods.js';
import { mountRoutes } from './http/mount.js';
import { mcpEndpoint } from './mcp/endpoint.js';
import { foreignPingUrls } from './pings/foreign-ping-urls.js';
import { ROUTES } from './routes/index.js';
import { statusPageSite } from './status-pages/public/status-page-site.js';
import { subscriptionSite } from './status-pages/public/subscription-site.js';

export const API_PREFIX = '/api/v1';

/** Builds the Koa app from its dependencies. It never listens by itself. */
export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  app.proxy = false;
  app.silent = true;
  app.use(requestLog(deps.logger, deps.metrics, deps.lifecycle));
  app.use(errorMiddleware(deps.logger, deps.caches.writeHealth));
  app.use(refuseNulBytes(isApiPath));
  app.use(clientAddress(deps.config.trustProxy));
  app.use(async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    if (ctx.path.startsWith(API_PREFIX)) ctx.set('Cache-Control', 'no-store');
    await next();
  });
  // The MCP endpoint is not a REST route: the MCP transport answers it, behind the same bearer auth.
  app.use(mcpEndpoint(deps, `${API_PREFIX}/mcp`));
  const api = new Router({ prefix: API_PREFIX });
  mountRoutes(api, ROUTES, deps);
  app.use(apiMethods(api, API_PREFIX));
  app.use(api.routes());
  app.use(api.allowedMethods());
  // The ping URLs of the tools checks are imported from (/api/push/..., /ping/...), answered as those tools do.
  app.use(foreignPingUrls(deps));
  // Public status pages and their feeds live outside the API, at /status/{org}/{page}.
  app.use(subscriptionSite(deps));
  app.use(statusPageSite(deps));
  // Every other path is the dashboard (deep links get its index.html).
  app.use(dashboardStatic());
  return app;
}

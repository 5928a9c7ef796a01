import { Registry } from 'prom-client';
import { registerCheckMetrics } from '../metrics/check-metrics.js';
import { route, type RouteSpec } from '../http/route.js';

/** An organization's own Prometheus series, for a tenant's Prometheus (a `metrics:read` token is enough). */
export const orgMetricsRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/orgs/:org/metrics',
    permission: 'checks:read',
    surface: 'metrics',
    summary: "The organization's check series in the Prometheus text format (svc_check_*, svc_incidents_open); a token with the metrics:read scope suffices.",
    async handler({ ctx, deps, auth }) {
      const registry = new Registry();
      registerCheckMetrics(registry, deps.db, deps.metrics.checkRunCounts, { organizationUid: auth.org.uid, seriesLimit: deps.config.metricsCheckSeriesLimit });
      ctx.type = registry.contentType;
      ctx.body = await registry.metrics();
    },
  }),
];

import type { CheckCandidate } from '../shared/conversion-builder.js';
import type { ItemScope } from '../shared/item-scope.js';
import { importLabels } from '../shared/labels.js';
import { monitorHost, monitorUrl } from './hosts.js';
import { requestConfig } from './http-request.js';
import { withoutUrlCredentials } from '../shared/url-credentials.js';
import type { MonitorSpec } from './monitor-spec.js';
import { importBoundedText } from '../shared/bounded-text.js';

function hostPort(host: string, port: number): string {
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `${bracketed}:${port}`;
}

/**
 * An HTTP monitor's check. A `user:password@` in its URL becomes basic auth, unless the monitor
 * signs in through its own HTTP authentication settings; either way it leaves the URL.
 */
function httpCandidate(spec: MonitorSpec, scope: ItemScope): Pick<CheckCandidate, 'type' | 'target' | 'config'> {
  const request = spec.request ? requestConfig(spec.request, scope) : {};
  const signsIn = request.basicAuthUser !== undefined || request.basicAuthPassword !== undefined;
  const fromUrl: Record<string, unknown> = {};
  const target = withoutUrlCredentials(monitorUrl(spec.url, scope, spec.fields.url), scope, spec.fields.url, fromUrl, !signsIn);
  return {
    type: 'http',
    target,
    config: {
      ...(signsIn ? {} : fromUrl),
      ...request,
      expectedStatusCodes: spec.statusCodes,
      keyword: spec.keyword,
      jsonQueries: spec.jsonQueries,
      ignoreTlsErrors: spec.ignoreTlsErrors,
      followRedirects: spec.followRedirects,
      certificateExpiryDays: spec.certificateDays,
    },
  };
}

// The kind-specific part of the check: type, target and config.
function kindParts(spec: MonitorSpec, scope: ItemScope): Pick<CheckCandidate, 'type' | 'target' | 'config'> | string {
  switch (spec.kind) {
    case 'http':
    case 'keyword':
    case 'api':
      return httpCandidate(spec, scope);
    case 'ping':
      return { type: 'icmp', target: monitorHost(spec.url, scope, spec.fields.url), config: {} };
    case 'port': {
      const service = spec.portService;
      const port = service?.port ?? spec.port;
      if (!service || port === undefined) return 'the port monitor names no port (sub_type custom without `port`)';
      return { type: service.type, target: hostPort(monitorHost(spec.url, scope, spec.fields.url), port), config: {} };
    }
    case 'udp':
      if (spec.port === undefined) return 'the UDP monitor names no port';
      return {
        type: 'udp',
        target: hostPort(monitorHost(spec.url, scope, spec.fields.url), spec.port),
        config: { send: importBoundedText(spec.udpPayload, scope, 'config.udp.payload', 'UDP payload') },
      };
    case 'dns':
      return {
        type: 'dns',
        target: monitorHost(spec.url, scope, spec.fields.url),
        config: { recordType: spec.dns?.recordType, expectedValues: spec.dns?.values },
      };
    case 'heartbeat':
      if (spec.url.trim() !== '') {
        scope.warn(
          'UNSUPPORTED_SETTING',
          "the heartbeat URL belongs to UptimeRobot and does not carry over; point the job at this check's own ping URL",
          spec.fields.url,
        );
      }
      return {
        type: 'heartbeat',
        target: '',
        config: {
          periodSeconds: scope.heartbeatPeriodSeconds(spec.intervalSeconds ?? 300, spec.fields.interval),
          graceSeconds: spec.graceSeconds === undefined ? undefined : scope.heartbeatGraceSeconds(spec.graceSeconds, 'gracePeriod'),
        },
      };
  }
}

/**
 * The check a monitor becomes, or a sentence saying why it cannot become one (the item is
 * then skipped as invalid).
 */
export function monitorCandidate(spec: MonitorSpec, scope: ItemScope): CheckCandidate | string {
  const parts = kindParts(spec, scope);
  if (typeof parts === 'string') return parts;
  const heartbeat = parts.type === 'heartbeat';
  const intervalSeconds = heartbeat ? undefined : scope.intervalSeconds(spec.intervalSeconds, spec.fields.interval);
  const timeoutMs = heartbeat
    ? undefined
    : scope.timeoutMs(spec.timeoutSeconds === undefined ? undefined : spec.timeoutSeconds * 1000, intervalSeconds, spec.fields.timeout);
  const degraded = spec.degradedResponseMs;
  const degradedResponseMs = degraded !== undefined && degraded < (timeoutMs ?? 10_000) ? degraded : undefined;
  if (degraded !== undefined && degradedResponseMs === undefined) {
    scope.warn('UNSUPPORTED_SETTING', `the response time threshold of ${degraded} ms is not below the timeout; it was left out`, 'responseTimeThreshold');
  }
  return {
    name: spec.name,
    ...parts,
    enabled: spec.enabled,
    intervalSeconds,
    thresholds: { timeoutMs, degradedResponseMs },
    labels: importLabels(spec.labels, scope, 'tags'),
  };
}

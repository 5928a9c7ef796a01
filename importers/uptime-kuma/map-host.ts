import type { ItemScope } from '../converter.js';
import { missing, type SkipItem, type TypeMapping } from './mapping.js';
import { num, text, type MonitorRecord } from './monitor-record.js';

const MAX_PERIOD_SECONDS = 2_678_400;

function dockerEngine(monitor: MonitorRecord, scope: ItemScope): string | undefined {
  const host = monitor.dockerHost;
  if (host === undefined) {
    if (num(monitor, 'docker_host') !== undefined) {
      scope.warn(
        'VALUE_ADJUSTED',
        'the Docker host is not part of this export; the local socket (unix:///var/run/docker.sock) is used',
        monitor.field('docker_host'),
      );
    }
    return undefined;
  }
  const daemon = host.daemon.trim();
  if (/^[a-z]+:\/\//i.test(daemon)) return daemon;
  if (host.type === 'socket' || daemon.startsWith('/')) return `unix://${daemon}`;
  return `tcp://${daemon}`;
}

/** `docker` monitors: a Docker container check against the monitor's Docker host. */
export function mapDocker(monitor: MonitorRecord, scope: ItemScope): TypeMapping | SkipItem {
  const container = text(monitor, 'docker_container')?.trim();
  if (container === undefined) return missing(monitor, 'docker_container', 'container name');
  // The tool reports a restarting container, or a running one whose health status is neither
  // healthy, unhealthy nor "none" (starting, or the empty status podman's Engine API gives a
  // container without a health check), as pending rather than down or up (server/model/monitor.js,
  // docker branch); the check fails on the first two and is up on the last.
  scope.warn(
    'UNSUPPORTED_SETTING',
    'a container that is restarting or whose health check is still starting was pending (not down) in the tool, and so was a running ' +
      'container without a health check on an engine that reports an empty health status (podman); the check reports the first two down and the last up',
    monitor.field('docker_container'),
  );
  return { type: 'docker', target: container, config: { dockerHost: dockerEngine(monitor, scope) } };
}

/**
 * `push` monitors: a heartbeat check. The tool marks a push monitor down when no push arrived
 * within its interval, so the period is the interval with no grace; retries become
 * `failuresBeforeDown` like everywhere else. The push token is kept as the check's ping token:
 * svc answers the tool's push URL (`/api/push/{token}?status=up|down&msg=&ping=`) as the tool
 * does, so the job changes only the host.
 */
export function mapPush(monitor: MonitorRecord, scope: ItemScope): TypeMapping | SkipItem {
  const interval = num(monitor, 'interval') ?? 60;
  const period = Math.min(MAX_PERIOD_SECONDS, Math.max(10, Math.round(interval)));
  const pingToken = text(monitor, 'push_token');
  if (pingToken === undefined) {
    scope.warn('SECRET_DROPPED', "the push monitor has no push token: point the job at the new check's ping URL", monitor.field('push_token'));
  }
  return { type: 'heartbeat', config: { periodSeconds: period, graceSeconds: 0 }, ...(pingToken !== undefined ? { pingToken } : {}) };
}

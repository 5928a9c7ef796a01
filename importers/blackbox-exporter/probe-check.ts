import type { CheckTypeName } from '../../checks/index.js';
import type { CheckCandidate } from '../shared/conversion-builder.js';
import { isRecord } from '../shared/input-text.js';
import type { ItemScope } from '../shared/item-scope.js';
import { hasHeader, setHeader } from '../shared/headers.js';
import { importLabels } from '../shared/labels.js';
import { hideUrlCredentials } from '../shared/url-credentials.js';
import { describeValue, textValue } from '../shared/values.js';
import { parseDuration } from './duration.js';
import { dnsProbe } from './module-dns.js';
import { grpcProbe } from './module-grpc.js';
import { httpProbe } from './module-http.js';
import { icmpProbe } from './module-icmp.js';
import { tcpProbe } from './module-tcp.js';
import { proberBlock } from './probe-settings.js';
import type { ProbeTarget } from './scrape-targets.js';

/** What a module makes of one target: the check's type, target and type settings. */
export interface ProbeCheck {
  type: CheckTypeName;
  target: string;
  config: Record<string, unknown>;
}

// The exporter subtracts this from Prometheus' scrape timeout (main.go's --timeout-offset default).
const TIMEOUT_OFFSET_MS = 500;

const PROBERS: Record<string, (target: string, block: Record<string, unknown>, scope: ItemScope) => ProbeCheck | string> = {
  http: httpProbe,
  tcp: tcpProbe,
  icmp: icmpProbe,
  dns: dnsProbe,
  grpc: grpcProbe,
};

/**
 * The probe's timeout as the exporter computes it (prober/handler.go, getTimeout): the scrape
 * timeout less the offset, or the module's `timeout` when that is shorter.
 */
function probeTimeoutMs(module: Record<string, unknown>, probe: ProbeTarget, scope: ItemScope): number {
  const limit = probe.scrapeTimeoutMs - TIMEOUT_OFFSET_MS;
  const raw = module.timeout;
  const own = raw === undefined || raw === null ? undefined : parseDuration(textValue(raw) ?? '');
  if (raw !== undefined && raw !== null && own === undefined)
    scope.warn('VALUE_ADJUSTED', `timeout ${describeValue(raw)} is not a duration such as 5s; ignored`, 'timeout');
  return own !== undefined && own > 0 && (own < limit || limit < 0) ? own : limit;
}

/**
 * The `hostname` parameter of an HTTP probe (prober/http.go): the Host header and the TLS
 * server name. The header carries over; the server name is reported when it differs from the
 * URL's host, since the check names the URL's host in TLS.
 */
function applyHostname(check: ProbeCheck, hostname: string, scope: ItemScope): void {
  if (check.type !== 'http') {
    scope.warn('UNSUPPORTED_SETTING', `the hostname parameter only means something to an HTTP probe; ignored`, 'params.hostname');
    return;
  }
  const headers = { ...(check.config.headers as Record<string, string> | undefined) };
  if (!hasHeader(headers, 'host')) {
    setHeader(headers, 'Host', hostname, scope, 'headers');
    check.config.headers = headers;
  }
  // A target that is no URL is refused with the check (INVALID_ITEM), not here.
  const url = URL.canParse(check.target) ? new URL(check.target) : undefined;
  if (url?.protocol === 'https:' && url.hostname !== hostname) {
    scope.warn(
      'UNSUPPORTED_SETTING',
      `the TLS server name ${hostname} (from the hostname parameter) is not sent; the check names ${url.hostname}`,
      'params.hostname',
    );
  }
}

/**
 * The check one probe becomes, or why there is none: `UNSUPPORTED_TYPE` for a prober without
 * an equivalent, `INVALID_ITEM` for a module blackbox.yml does not define.
 */
export function probeCandidate(
  probe: ProbeTarget,
  modules: Record<string, unknown> | undefined,
  scope: ItemScope,
): CheckCandidate | { skip: 'UNSUPPORTED_TYPE' | 'INVALID_ITEM'; message: string } {
  const module = modules?.[probe.module];
  if (!isRecord(module)) {
    const message = modules
      ? `the module ${JSON.stringify(probe.module)} is not defined in blackbox.yml`
      : `the module ${JSON.stringify(probe.module)} cannot be read: give blackbox.yml too (svc import --file prometheus.yml --file blackbox.yml)`;
    return { skip: 'INVALID_ITEM', message };
  }
  const prober = textValue(module.prober)?.trim() ?? '';
  const map = Object.hasOwn(PROBERS, prober) ? PROBERS[prober] : undefined;
  if (!map)
    return { skip: 'UNSUPPORTED_TYPE', message: `the ${prober || 'unnamed'} prober of module ${JSON.stringify(probe.module)} has no equivalent check type` };
  const mapped = map(probe.target, proberBlock(module, prober, scope), scope);
  if (typeof mapped === 'string') return { skip: 'INVALID_ITEM', message: mapped };
  if (probe.hostname !== undefined) applyHostname(mapped, probe.hostname, scope);
  const intervalSeconds = scope.intervalSeconds(probe.intervalMs / 1000, 'scrape_interval');
  return {
    name: `${hideUrlCredentials(probe.target)} (${probe.module})`,
    type: mapped.type,
    intervalSeconds,
    target: mapped.target,
    config: mapped.config,
    // Each scrape is one probe, and probe_success reports it at once: down on the first failure.
    thresholds: { timeoutMs: scope.timeoutMs(probeTimeoutMs(module, probe, scope), intervalSeconds, 'timeout'), failuresBeforeDown: 1, successesBeforeUp: 1 },
    labels: importLabels(
      probe.labels.map(([key, value]) => [key, hideUrlCredentials(value)]),
      scope,
      'labels',
    ),
  };
}

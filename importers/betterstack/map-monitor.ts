import type { CheckCandidate, ItemScope } from '../converter.js';
import { dropAlerting, dropMaintenance } from './alerting.js';
import { flag, num, text, type Attributes } from './attributes.js';
import { mapDns, mapHost, mapHttp, mapPlaywright, type KindMapping, type KindSkip } from './map-kinds.js';

// request_timeout is in seconds for the HTTP kinds and in milliseconds for the others.
const SECOND_TIMEOUT_KINDS = new Set(['status', 'expected_status_code', 'keyword', 'keyword_absence', 'playwright']);
const MAX_COUNT = 100;

function mapKind(kind: string, attributes: Attributes, scope: ItemScope): KindMapping | KindSkip {
  switch (kind) {
    case 'status':
    case 'expected_status_code':
    case 'keyword':
    case 'keyword_absence':
      return mapHttp(attributes, scope, kind);
    case 'playwright':
      return mapPlaywright(attributes, scope);
    case 'ping':
    case 'tcp':
    case 'udp':
    case 'smtp':
    case 'pop':
    case 'imap':
      return mapHost(attributes, scope, kind);
    case 'dns':
      return mapDns(attributes, scope);
    default:
      return {
        skip: 'UNSUPPORTED_TYPE',
        message: `the monitor type "${kind}" has no equivalent check type; the monitor was skipped`,
        field: 'monitor_type',
      };
  }
}

/** Consecutive probes that cover `seconds` at one probe every `interval` seconds. */
function probesFor(seconds: number | undefined, interval: number): number | undefined {
  if (seconds === undefined || seconds <= 0) return undefined;
  return Math.min(MAX_COUNT, Math.ceil(seconds / interval));
}

function thresholdsOf(attributes: Attributes, scope: ItemScope, kind: string, intervalSeconds: number | undefined) {
  const timeout = num(attributes, 'request_timeout');
  const timeoutMs =
    timeout === undefined || timeout <= 0
      ? undefined
      : scope.timeoutMs(SECOND_TIMEOUT_KINDS.has(kind) ? timeout * 1000 : timeout, intervalSeconds, 'request_timeout');
  // The confirmation period delays an incident after the first failure; the recovery period
  // is how long the monitor must pass before it counts as up again.
  // Without them, the first failure opens an incident and the first success closes it.
  const interval = intervalSeconds ?? 60;
  const confirmation = probesFor(num(attributes, 'confirmation_period'), interval) ?? 0;
  const recovery = probesFor(num(attributes, 'recovery_period'), interval) ?? 1;
  return { timeoutMs, failuresBeforeDown: Math.min(MAX_COUNT, confirmation + 1), successesBeforeUp: recovery };
}

/** The item name of a monitor in warnings: its name, else its URL, else its id. */
export function monitorItem(attributes: Attributes | undefined, id: string | undefined, index: number): string {
  const name = attributes && (text(attributes, 'pronounceable_name') ?? text(attributes, 'url'));
  return name?.trim() || `monitor ${id ?? `#${index + 1}`}`;
}

/** Converts one monitor's attributes to a check candidate (without labels), or says why it has none. */
export function monitorCandidate(attributes: Attributes, scope: ItemScope): CheckCandidate | KindSkip {
  const kind = text(attributes, 'monitor_type')?.trim() ?? 'status';
  const mapping = mapKind(kind, attributes, scope);
  if ('skip' in mapping) return mapping;
  const intervalSeconds = scope.intervalSeconds(num(attributes, 'check_frequency'), 'check_frequency');
  const paused = flag(attributes, 'paused') ?? (text(attributes, 'paused_at') !== undefined || text(attributes, 'status') === 'paused');
  if (mapping.type !== 'http' && text(attributes, 'domain_expiration') !== undefined) {
    scope.warn('UNSUPPORTED_SETTING', 'domain expiry is watched by HTTP checks only; add a domain check for it', 'domain_expiration');
  }
  dropMaintenance(attributes, scope);
  dropAlerting(attributes, scope);
  return {
    name: text(attributes, 'pronounceable_name')?.trim() ?? text(attributes, 'url')?.trim() ?? '',
    type: mapping.type,
    enabled: !paused,
    intervalSeconds,
    target: mapping.target,
    config: mapping.config,
    thresholds: thresholdsOf(attributes, scope, kind, intervalSeconds),
  };
}

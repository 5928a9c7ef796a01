import { isRecord } from '../shared/input-text.js';
import type { ItemScope } from '../shared/item-scope.js';
import { flagValue, integerValue, textValue } from '../shared/values.js';

/** What an endpoint's alerts leave behind once their bindings are dropped. */
export interface AlertThresholds {
  failuresBeforeDown?: number;
  successesBeforeUp?: number;
}

const DEFAULT_FAILURE_THRESHOLD = 3;
const DEFAULT_SUCCESS_THRESHOLD = 2;

function clampCount(value: number): number {
  return Math.min(100, Math.max(1, value));
}

function providerDefault(alerting: unknown, type: string, key: string): number | undefined {
  if (!isRecord(alerting)) return undefined;
  const provider = alerting[type];
  if (!isRecord(provider) || !isRecord(provider['default-alert'])) return undefined;
  return integerValue(provider['default-alert'][key]);
}

/**
 * Drops an endpoint's `alerts` with one `NOTIFICATIONS_DROPPED` warning and keeps what
 * they say about when the endpoint counts as down: the smallest `failure-threshold` and
 * `success-threshold` of the enabled alerts (falling back to the provider's `default-alert`,
 * then to Gatus' defaults of 3 and 2) become `failuresBeforeDown` and `successesBeforeUp`.
 */
export function dropAlerts(raw: unknown, alerting: unknown, scope: ItemScope): AlertThresholds {
  if (raw === undefined || raw === null) return {};
  if (!Array.isArray(raw)) {
    scope.warn('NOTIFICATIONS_DROPPED', '`alerts` was dropped: notification bindings never carry over', 'alerts');
    return {};
  }
  if (raw.length === 0) return {};
  const types = [...new Set(raw.map((alert) => (isRecord(alert) ? textValue(alert.type) : undefined)).filter((t) => t))];
  let failures: number | undefined;
  let successes: number | undefined;
  for (const alert of raw) {
    if (!isRecord(alert) || flagValue(alert.enabled) === false) continue;
    const type = textValue(alert.type) ?? '';
    const failure = integerValue(alert['failure-threshold']) ?? providerDefault(alerting, type, 'failure-threshold') ?? DEFAULT_FAILURE_THRESHOLD;
    const success = integerValue(alert['success-threshold']) ?? providerDefault(alerting, type, 'success-threshold') ?? DEFAULT_SUCCESS_THRESHOLD;
    failures = Math.min(failures ?? Infinity, clampCount(failure));
    successes = Math.min(successes ?? Infinity, clampCount(success));
  }
  const kept =
    failures === undefined ? '' : ` Their thresholds were kept: down after ${failures} failure(s) in a row, up again after ${successes} success(es).`;
  scope.warn(
    'NOTIFICATIONS_DROPPED',
    `${raw.length} alert(s)${types.length > 0 ? ` (${types.join(', ')})` : ''} dropped: notification bindings never carry over; ` +
      `set up notifications for this check in svc.${kept}`,
    'alerts',
  );
  return failures === undefined ? {} : { failuresBeforeDown: failures, successesBeforeUp: successes };
}

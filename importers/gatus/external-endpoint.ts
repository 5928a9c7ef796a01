import type { ConversionBuilder } from '../shared/conversion-builder.js';
import { isRecord } from '../shared/input-text.js';
import { describeValue, textValue } from '../shared/values.js';
import { dropAlerts } from './alerts.js';
import { readEnabled } from './endpoint.js';
import { endpointLabels } from './endpoint-labels.js';
import { readDurationSeconds } from './interval.js';
import { keepPlaceholders } from './keep-placeholders.js';

// Gatus only watches an external endpoint for silence when heartbeat.interval is set; a
// heartbeat check always has a period, so one is chosen and said.
const DEFAULT_PERIOD_SECONDS = 86_400;

/** Converts one entry of `external-endpoints` (pushed results) into a heartbeat check. */
export function convertExternalEndpoint(raw: unknown, index: number, alerting: unknown, builder: ConversionBuilder): void {
  const position = `external-endpoints[${index}]`;
  if (!isRecord(raw)) {
    builder.skip(builder.item(position), 'INVALID_ITEM', `the external endpoint is ${describeValue(raw)}, not a mapping`);
    return;
  }
  const name = textValue(raw.name)?.trim() ?? '';
  const scope = builder.item(name || position);
  if (name === '') {
    builder.skip(scope, 'INVALID_ITEM', 'the external endpoint has no name', 'name');
    return;
  }
  keepPlaceholders(scope, name, 'name');
  if (raw.token !== undefined && raw.token !== null && raw.token !== '') {
    scope.warn('SECRET_DROPPED', "the push token was dropped: secrets never carry over; the job must push to this check's own ping URL instead", 'token');
  }
  const heartbeat = isRecord(raw.heartbeat) ? raw.heartbeat : {};
  let period = readDurationSeconds(heartbeat.interval, 'heartbeat.interval', scope, 'one day');
  if (period === undefined || period <= 0) {
    if (heartbeat.interval === undefined || period === 0) {
      scope.warn(
        'VALUE_ADJUSTED',
        'no heartbeat.interval: Gatus never expects a push, but a heartbeat check needs a period; one day is used',
        'heartbeat.interval',
      );
    }
    period = DEFAULT_PERIOD_SECONDS;
  }
  const periodSeconds = scope.heartbeatPeriodSeconds(period, 'heartbeat.interval');
  scope.warn(
    'UNSUPPORTED_SETTING',
    'pushed failures (success=false) and durations are not received: the check only notices when pushes stop',
    'external-endpoints',
  );
  const thresholds = dropAlerts(raw.alerts, alerting, scope);
  builder.emit(scope, {
    name,
    type: 'heartbeat',
    enabled: readEnabled(raw.enabled, scope),
    config: { periodSeconds },
    thresholds,
    labels: endpointLabels(raw, scope),
  });
}

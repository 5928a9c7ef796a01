import type { ConversionBuilder } from '../shared/conversion-builder.js';
import { isRecord } from '../shared/input-text.js';
import { textValue } from '../shared/values.js';
import { convertMaintenance } from './maintenance.js';

/** Skips each suite: a multi-step flow sharing context has no single-check equivalent. */
export function skipSuites(suites: readonly unknown[], builder: ConversionBuilder): void {
  suites.forEach((suite, index) => {
    const name = isRecord(suite) ? textValue(suite.name)?.trim() : undefined;
    const steps = isRecord(suite) && Array.isArray(suite.endpoints) ? suite.endpoints.length : 0;
    builder.skip(
      builder.item(name || `suites[${index}]`),
      'UNSUPPORTED_TYPE',
      `suites (multi-step flows sharing a context) have no equivalent; the suite and its ${steps} endpoint(s) were not imported`,
      'suites',
    );
  });
}

/** Reports the top-level notification settings, and converts the maintenance window. */
export function reportTopLevel(top: Record<string, unknown>, builder: ConversionBuilder): void {
  const alerting = top.alerting;
  if (isRecord(alerting) && Object.keys(alerting).length > 0) {
    builder
      .item('alerting')
      .warn(
        'NOTIFICATIONS_DROPPED',
        `the alerting providers (${Object.keys(alerting).join(', ')}) and their credentials were not imported: ` +
          'notification settings and secrets never carry over; set up notification channels in svc',
        'alerting',
      );
  }
  convertMaintenance(top.maintenance, builder);
}

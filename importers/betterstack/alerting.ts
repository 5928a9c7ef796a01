import type { ItemScope } from '../converter.js';
import { flag, isSet, type Attributes } from './attributes.js';

const CHANNELS = ['call', 'sms', 'email', 'push', 'critical_alert'] as const;
const CHANNEL_NAMES: Readonly<Record<(typeof CHANNELS)[number], string>> = {
  call: 'phone call',
  sms: 'text message',
  email: 'e-mail',
  push: 'push notification',
  critical_alert: 'critical alert',
};

function spoken(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * Reports the alerting of a monitor or heartbeat that does not carry over: the alert
 * channels switched on (call, sms, email, push, critical_alert) and the escalation policy.
 */
export function dropAlerting(attributes: Attributes, scope: ItemScope): void {
  const channels = CHANNELS.filter((channel) => flag(attributes, channel) === true);
  if (channels.length > 0) {
    scope.warn(
      'NOTIFICATIONS_DROPPED',
      `alerting by ${spoken(channels.map((channel) => CHANNEL_NAMES[channel]))} was not imported ` +
        '(notification bindings never carry over): set up alerting for the check again',
      channels.join('/'),
    );
  }
  if (isSet(attributes, 'policy_id')) {
    scope.warn(
      'NOTIFICATIONS_DROPPED',
      'the escalation policy was not imported (escalation policies and on-call rotations never carry over): set it up again',
      'policy_id',
    );
  }
}

/** Reports a maintenance window, which has no equivalent on a check. */
export function dropMaintenance(attributes: Attributes, scope: ItemScope): void {
  if (isSet(attributes, 'maintenance_from') || isSet(attributes, 'maintenance_to')) {
    scope.warn('UNSUPPORTED_SETTING', 'the maintenance window has no equivalent on a check; set it up again', 'maintenance_from');
  }
}

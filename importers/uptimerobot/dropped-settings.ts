import type { ItemScope } from '../shared/item-scope.js';

function count(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}

/** The field names, per API version, of what never carries over. */
export interface DroppedFields {
  alertContacts: string;
  maintenanceWindows: string;
}

/** The status-history fields of each API version (logs, response times). */
export const HISTORY_FIELDS: Readonly<Record<2 | 3, readonly string[]>> = { 2: ['logs', 'response_times'], 3: ['logs', 'responseTimes'] };

/** The status-history fields that hold entries on `monitor`. */
export function historyFieldsOf(monitor: Record<string, unknown>, version: 2 | 3): string[] {
  return HISTORY_FIELDS[version].filter((field) => count(monitor[field]) > 0);
}

/**
 * Warns about what a monitor carries that never comes over: its alert contacts
 * (`NOTIFICATIONS_DROPPED`) and its maintenance windows (`UNSUPPORTED_SETTING`). Empty lists
 * say nothing. Status history is said once for the whole import (see the converter).
 */
export function warnDropped(monitor: Record<string, unknown>, fields: DroppedFields, scope: ItemScope): void {
  const contacts = count(monitor[fields.alertContacts]);
  if (contacts > 0) {
    scope.warn(
      'NOTIFICATIONS_DROPPED',
      `${contacts} alert contact(s) dropped: notification bindings never carry over; set up notifications for this check in svc`,
      fields.alertContacts,
    );
  }
  if (count(monitor[fields.maintenanceWindows]) > 0) {
    scope.warn('UNSUPPORTED_SETTING', 'maintenance windows are not imported; set them up in svc', fields.maintenanceWindows);
  }
}

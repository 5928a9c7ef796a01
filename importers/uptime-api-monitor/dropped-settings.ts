import type { ItemScope } from '../shared/item-scope.js';

function count(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}

/** The field names, per API version, of what never carries over. */
export interface DroppedFields {
  alertContacts: string;
  maintenanceWindows: string;
  history: readonly string[];
}

/**
 * Warns about what a monitor carries that never comes over: its alert contacts
 * (`NOTIFICATIONS_DROPPED`), its maintenance windows and its status history
 * (`UNSUPPORTED_SETTING`). Empty lists say nothing.
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
  const history = fields.history.filter((field) => count(monitor[field]) > 0);
  if (history.length > 0) {
    scope.warn('UNSUPPORTED_SETTING', `status history (${history.join(', ')}) never carries over`, history[0]);
  }
}

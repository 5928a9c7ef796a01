import type { ItemScope } from './item-scope.js';

/**
 * Text a check sends (a TCP or UDP payload, a Kafka message, an SSH command) within the catalog's
 * bound of `max` characters; a longer one is left out with an `UNSUPPORTED_SETTING` warning,
 * never cut (a cut payload would be a different request).
 */
export function importSentText(value: string | undefined, scope: ItemScope, field: string, what: string, max = 65_536): string | undefined {
  if (value === undefined || value.length <= max) return value;
  scope.warn('UNSUPPORTED_SETTING', `the ${what} is longer than ${max} characters and was left out`, field);
  return undefined;
}

import type { ItemScope } from './item-scope.js';

/**
 * Text within the catalog's bound of `max` characters (a request body or payload, a keyword, an
 * SSH command); a longer one is left out with an `UNSUPPORTED_SETTING` warning naming `what`,
 * never cut (a cut payload would be a different request, a cut keyword a different test).
 */
export function importBoundedText(value: string | undefined, scope: ItemScope, field: string, what: string, max = 65_536): string | undefined {
  if (value === undefined || value.length <= max) return value;
  scope.warn('UNSUPPORTED_SETTING', `the ${what} is longer than ${max} characters and was left out`, field);
  return undefined;
}

import type { ItemScope } from './item-scope.js';

/** The catalog's bound of a user name, in characters. */
const MAX_USER_NAME = 255;

/**
 * A user name to sign in with, within the catalog's bound; a longer one is left out with an
 * `UNSUPPORTED_SETTING` warning on `field` (the check then signs in without it), an empty one is
 * no user name.
 */
export function importUserName(value: string | undefined, scope: ItemScope, field: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (value.length <= MAX_USER_NAME) return value;
  scope.warn('UNSUPPORTED_SETTING', `the user name is longer than ${MAX_USER_NAME} characters and was left out`, field);
  return undefined;
}

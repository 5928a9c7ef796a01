import type { ItemScope } from './item-scope.js';

/** The catalog's bounds of a DNS check's expected values: 50, of up to 1,024 characters each. */
const MAX_VALUES = 50;
const MAX_VALUE_LENGTH = 1024;

/**
 * The answers a DNS check expects, within the catalog's bounds: values longer than 1,024
 * characters and those past the 50th are left out with an `UNSUPPORTED_SETTING` warning on
 * `field` (the check then accepts fewer answers than the source did).
 */
export function importExpectedValues(values: readonly string[], scope: ItemScope, field: string): string[] {
  const fitting = values.filter((value) => value.length <= MAX_VALUE_LENGTH);
  if (fitting.length < values.length) {
    scope.warn('UNSUPPORTED_SETTING', `${values.length - fitting.length} expected value(s) longer than ${MAX_VALUE_LENGTH} characters were left out`, field);
  }
  if (fitting.length > MAX_VALUES) {
    scope.warn('UNSUPPORTED_SETTING', `only the first ${MAX_VALUES} of ${fitting.length} expected values were kept`, field);
  }
  return fitting.slice(0, MAX_VALUES);
}

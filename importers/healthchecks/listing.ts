import { ImportInputError, inputText, isRecord, parseJsonText } from '../converter.js';

/** What the input is, for error messages. */
export const CHECKS_LISTING =
  'the JSON of the cron monitor\'s Management API v3 checks listing (GET /api/v3/checks/: {"checks": [...]}), or a list of its checks';

/** The checks of a saved listing, `{"checks": [...]}` (or the list itself), in the API's order. */
export function listedChecks(input: Uint8Array | string | { checks: readonly unknown[] }): readonly unknown[] {
  if (typeof input === 'object' && !(input instanceof Uint8Array)) return input.checks;
  const value = parseJsonText(inputText(input, CHECKS_LISTING), CHECKS_LISTING);
  if (Array.isArray(value)) return value;
  if (isRecord(value) && Array.isArray(value.checks)) return value.checks;
  throw new ImportInputError(`expected ${CHECKS_LISTING}, but the JSON has no "checks" list`);
}

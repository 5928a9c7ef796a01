// No imports: the contract is the ground floor that daemon, CLI and dashboard all read.

/** Warning codes of the import response (API.md). */
export const IMPORT_WARNING_CODES = [
  'UNSUPPORTED_TYPE',
  'UNSUPPORTED_SETTING',
  'SECRET_DROPPED',
  'NOTIFICATIONS_DROPPED',
  'INVALID_ITEM',
  'VALUE_ADJUSTED',
  'OWNED_ELSEWHERE',
  'BECAME_LABEL',
] as const;

/**
 * - `UNSUPPORTED_TYPE`: the item has no equivalent check type; it is skipped.
 * - `UNSUPPORTED_SETTING`: a setting has no equivalent; the check is imported without it.
 * - `SECRET_DROPPED`: a password, token, key or credential was not carried over; where the check
 *   has a field for it, the check refers to a secret instead and the message names the secret to set.
 * - `NOTIFICATIONS_DROPPED`: alert or notification bindings were dropped.
 * - `INVALID_ITEM`: the item is unusable (or the catalog rejects the check); it is skipped.
 * - `VALUE_ADJUSTED`: a value was changed to fit the catalog (e.g. an interval raised to 10 s).
 * - `OWNED_ELSEWHERE`: a check of the same slug is managed by another import source or was made
 *   by hand; it is left as it is (action `conflict`) unless the import takes it over.
 * - `BECAME_LABEL`: the item (a group) produces no check of its own but a label on its members.
 */
export type ImportWarningCode = (typeof IMPORT_WARNING_CODES)[number];

/** Each warning code in words, as a heading over the warnings of that kind. */
export const IMPORT_WARNING_TITLES: Readonly<Record<ImportWarningCode, string>> = Object.freeze({
  UNSUPPORTED_TYPE: 'No equivalent check type: skipped',
  UNSUPPORTED_SETTING: 'Settings with no equivalent: imported without them',
  SECRET_DROPPED: 'Passwords, tokens and keys not carried over',
  NOTIFICATIONS_DROPPED: 'Alerts and notifications not carried over',
  INVALID_ITEM: 'Unusable items: skipped',
  VALUE_ADJUSTED: 'Values adjusted to fit',
  OWNED_ELSEWHERE: 'Checks owned by another source or made by hand: left alone',
  BECAME_LABEL: 'Groups that became labels',
});

// What an import reports about the items it could not carry over exactly.

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

/** One warning of an import. */
export interface ImportWarning {
  /** The item as the source names it (a monitor's name, or its position when it has none). */
  item: string;
  /** The slug of the check the item became; absent when the item was skipped. */
  slug?: string;
  code: ImportWarningCode;
  /** The source's field the warning is about, in the source's own spelling (e.g. `client.oauth2`). */
  field?: string;
  /** A sentence for people: what happened and what to do. */
  message: string;
}

/** An item that produced no check. */
export interface SkippedItem {
  item: string;
  /** The code of the warning that explains the skip (`UNSUPPORTED_TYPE`, `INVALID_ITEM` or `BECAME_LABEL`). */
  reason: ImportWarningCode;
  /** That warning's sentence: why the item has no check, or what it became instead. */
  message: string;
}

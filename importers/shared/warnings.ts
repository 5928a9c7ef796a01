// What an import reports about the items it could not carry over exactly.

import type { ImportWarningCode } from '../../contract/import-warnings.js';

export { IMPORT_WARNING_CODES, type ImportWarningCode } from '../../contract/import-warnings.js';

/** One warning of an import: the contract's shape, which the response carries as it is. */
export type { ImportWarning } from '../../contract/responses.js';

/** An item that produced no check. */
export interface SkippedItem {
  item: string;
  /** The code of the warning that explains the skip (`UNSUPPORTED_TYPE`, `INVALID_ITEM` or `BECAME_LABEL`). */
  reason: ImportWarningCode;
  /** That warning's sentence: why the item has no check, or what it became instead. */
  message: string;
}

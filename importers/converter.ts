// The contract every importer follows (docs/architecture.md, enforced by the dependency rules): a converter is a pure function
// from the raw export of a source tool to check definitions plus warnings. No file system, no
// network, no clock, no database, no environment. One item's problem is a warning; only input
// that cannot be read at all throws, and then only an ImportInputError.
import type { CheckDefinition } from '../checks/index.js';
import type { MaintenanceCandidate } from './shared/maintenance-candidate.js';
import type { ImportWarning, SkippedItem } from './shared/warnings.js';

export {
  IMPORT_SOURCES,
  IMPORT_SOURCE_ALIASES,
  MANAGED_LABEL_KEY,
  canonicalSource,
  isImportSource,
  type ImportSource,
} from './shared/sources.js';
export { IMPORT_WARNING_CODES, type ImportWarning, type ImportWarningCode, type SkippedItem } from './shared/warnings.js';
export { ImportInputError } from './shared/import-input-error.js';
export { knownTimeZone, wallClockToUtc, type MaintenanceCandidate } from './shared/maintenance-candidate.js';
export { SlugAllocator } from './shared/slug-allocator.js';
export { ItemScope, TIMEOUT_BOUNDS_MS } from './shared/item-scope.js';
export { ConversionBuilder, type CheckCandidate } from './shared/conversion-builder.js';
export { importDescription } from './shared/description.js';
export { importLabels, labelKey, labelValue } from './shared/labels.js';
export { inputText, isRecord, parseJsonText } from './shared/input-text.js';
export { importHeaders, isSecretHeader } from './shared/headers.js';
export { jsonataPath } from './shared/json-path.js';
export { STATUS_CODE_BOUNDS, statusCodeList, statusCodeMatcher } from '../checks/status-codes.js';
export { importStatusCodes } from './shared/status-codes.js';
export { describeValue, flagValue, integerValue, numberValue, textValue } from './shared/values.js';

/** What a converter returns. Checks and warnings are in input order. */
export interface ConversionResult {
  /** Valid, normalised checks, each with its import slug and the label `svc-managed=<source>`. */
  checks: CheckDefinition[];
  /** Everything that did not carry over exactly, including the reasons for skipped items. */
  warnings: ImportWarning[];
  /** Items that produced no check; their count is the response's `skipped`. */
  skipped: SkippedItem[];
  /**
   * Heartbeat checks whose ping token carries over from the source (an Uptime Kuma push token, a
   * Healthchecks.io UUID), by slug, so that the job's ping URL keeps working with only its host
   * changed. Kept out of the checks: a token is a check's state, not its definition.
   */
  pingTokens?: Record<string, string>;
  /** Maintenance windows the source defines (absent when none); the import replaces this source's earlier ones with them. */
  maintenance?: MaintenanceCandidate[];
}

/** Options a converter may honour. Every field is optional; converters ignore what they do not use. */
export interface ConvertOptions {
  /** Called now and then while items are converted, for progress display of large inputs. */
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * A converter: the raw request body (text or bytes, exactly as sent) to checks and warnings.
 * Throws only ImportInputError, and only when the input cannot be read at all.
 */
export type Converter = (input: Uint8Array | string, options?: ConvertOptions) => ConversionResult;

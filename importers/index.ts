// The importers as the daemon and the CLI use them: the source registry, one conversion entry
// point, and the response that a preview and an apply both answer with (API.md).
import type { ConversionResult } from './converter.js';
import type { ImportSource } from './shared/sources.js';
import type { ImportWarning } from './shared/warnings.js';

export {
  IMPORT_REGISTRY,
  convertImport,
  describeImportSources,
  fetchWithToken,
  importSourceEntry,
  isSavedListing,
  tokenText,
  type ConverterInput,
  type ImportSourceEntry,
} from './registry.js';
// Types only: the adapter (and undici) load when a token source is used, not with this module.
export type { HostedMonitorData } from './hosted-monitor-api/index.js';
export type { ConversionResult, ConvertOptions } from './converter.js';
export { ImportInputError } from './shared/import-input-error.js';
export { IMPORT_SOURCES, MANAGED_LABEL_KEY, canonicalSource, type ImportSource } from './shared/sources.js';
export type { ImportWarning, ImportWarningCode } from './shared/warnings.js';

/**
 * What an import does, or would do, with one item. `conflict`: a check of that slug belongs to
 * another source or was made by hand, and is left alone (see `takeOver`).
 */
export type ImportAction = 'create' | 'update' | 'unchanged' | 'conflict' | 'skip';

/** One entry of the response's `checks`: a converted check, or an item that was skipped. */
export interface ImportCheckEntry {
  /** Absent for a skipped item, which has no check. */
  slug?: string;
  /** The check's name; for a skipped item, the item as the source names it. */
  name: string;
  /** Absent for a skipped item. */
  type?: string;
  action: ImportAction;
  /** For a skipped item: the warning code that explains it (`UNSUPPORTED_TYPE`, `INVALID_ITEM` or `BECAME_LABEL`). */
  reason?: string;
  /** For a skipped item: that warning's sentence, e.g. `became the label group=Core on its 2 monitors`. */
  message?: string;
}

/** The import response, the same for a preview (`dryRun: true`) and an apply. */
export interface ImportResponse {
  source: ImportSource;
  dryRun: boolean;
  created: number;
  updated: number;
  unchanged: number;
  /** Checks left alone because another source (or a person) owns their slug. */
  conflicts: number;
  skipped: number;
  warnings: ImportWarning[];
  /** The converted checks in input order with their action, then the skipped items. */
  checks: ImportCheckEntry[];
  /**
   * What the import does, as one value (the daemon's answers only): an apply sent with
   * `?expect=<digest>` of its preview writes only when it would do exactly what was shown.
   */
  digest?: string;
}

/**
 * Builds the response from a conversion and the action decided for each converted check
 * (`actionOf(slug)`). Counting from the entries keeps the counts and the list in step.
 */
export function importResponse(
  source: ImportSource,
  dryRun: boolean,
  result: ConversionResult,
  actionOf: (slug: string) => Exclude<ImportAction, 'skip'>,
  /** Warnings of the import itself (conflicts), after the conversion's. */
  moreWarnings: readonly ImportWarning[] = [],
): ImportResponse {
  const counts = { create: 0, update: 0, unchanged: 0, conflict: 0, skip: 0 };
  const checks: ImportCheckEntry[] = result.checks.map((check) => {
    const action = actionOf(check.slug);
    counts[action]++;
    return { slug: check.slug, name: check.name, type: check.type, action };
  });
  for (const item of result.skipped) {
    counts.skip++;
    checks.push({ name: item.item, action: 'skip', reason: item.reason, message: item.message });
  }
  return {
    source,
    dryRun,
    created: counts.create,
    updated: counts.update,
    unchanged: counts.unchanged,
    conflicts: counts.conflict,
    skipped: counts.skip,
    warnings: [...result.warnings, ...moreWarnings],
    checks,
  };
}

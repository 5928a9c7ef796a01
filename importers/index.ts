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

/** What an import does, or would do, with one item. */
export type ImportAction = 'create' | 'update' | 'unchanged' | 'skip';

/** One entry of the response's `checks`: a converted check, or an item that was skipped. */
export interface ImportCheckEntry {
  /** Absent for a skipped item, which has no check. */
  slug?: string;
  /** The check's name; for a skipped item, the item as the source names it. */
  name: string;
  /** Absent for a skipped item. */
  type?: string;
  action: ImportAction;
  /** For a skipped item: the warning code that explains it (`UNSUPPORTED_TYPE` or `INVALID_ITEM`). */
  reason?: string;
}

/** The import response, the same for a preview (`dryRun: true`) and an apply. */
export interface ImportResponse {
  source: ImportSource;
  dryRun: boolean;
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  warnings: ImportWarning[];
  /** The converted checks in input order with their action, then the skipped items. */
  checks: ImportCheckEntry[];
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
): ImportResponse {
  const counts = { create: 0, update: 0, unchanged: 0, skip: 0 };
  const checks: ImportCheckEntry[] = result.checks.map((check) => {
    const action = actionOf(check.slug);
    counts[action]++;
    return { slug: check.slug, name: check.name, type: check.type, action };
  });
  for (const item of result.skipped) {
    counts.skip++;
    checks.push({ name: item.item, action: 'skip', reason: item.reason });
  }
  return {
    source,
    dryRun,
    created: counts.create,
    updated: counts.update,
    unchanged: counts.unchanged,
    skipped: counts.skip,
    warnings: result.warnings,
    checks,
  };
}

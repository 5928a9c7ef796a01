// The importers as the daemon and the CLI use them: the source registry, one conversion entry
// point, and the response that a preview and an apply both answer with (API.md).
import type { ConversionResult } from './converter.js';
import type { ImportSource } from './shared/sources.js';
import type { ImportAction, ImportCheckEntry, ImportResult } from '../contract/responses.js';
import type { ImportWarning } from './shared/warnings.js';

export {
  IMPORT_REGISTRY,
  convertImport,
  describeImportSources,
  fetchWithToken,
  importSourceEntry,
  isSavedListing,
  tokenText,
  TOKEN_SOURCES,
  type ConverterInput,
  type TokenFetchOptions,
  type ImportSourceEntry,
} from './registry.js';
// Types only: the adapter (and undici) load when a token source is used, not with this module.
export type { HostedMonitorData } from './betterstack/index.js';
export type { CronMonitorChecks } from './healthchecks/fetch-checks.js';
export type { ConversionResult, ConvertOptions } from './converter.js';
export { ImportInputError } from './shared/import-input-error.js';
export { IMPORT_SOURCES, MANAGED_LABEL_KEY, canonicalSource, type ImportSource } from './shared/sources.js';
export type { ImportWarning, ImportWarningCode } from './shared/warnings.js';

// The response shapes are the contract's: the daemon answers them, the CLI and the dashboard read them.
export type { ImportAction, ImportCheckEntry } from '../contract/responses.js';

/** The import response, the same for a preview (`dryRun: true`) and an apply. */
export type ImportResponse = ImportResult;

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
  /** The field changes and conflicts of a re-run, per existing check. */
  fieldsOf: (slug: string) => Pick<ImportCheckEntry, 'changes' | 'conflicts'> = () => ({}),
): ImportResponse {
  const counts = { create: 0, update: 0, unchanged: 0, conflict: 0, skip: 0 };
  const checks: ImportCheckEntry[] = result.checks.map((check) => {
    const action = actionOf(check.slug);
    counts[action]++;
    return { slug: check.slug, name: check.name, type: check.type, action, ...fieldsOf(check.slug) };
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

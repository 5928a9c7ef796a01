import {
  canonicalSource,
  convertImport,
  describeImportSources,
  IMPORT_REGISTRY,
  ImportInputError,
  importResponse,
  isSavedListing,
  type ConverterInput,
  type ImportResponse,
  type ImportSource,
} from '../../importers/index.js';
import { isSqliteFile, sqliteHeaderProblem } from '../../importers/uptime-kuma/sqlite-header.js';
import { ApiError, type ApiClient } from '../client.js';
import type { CommandDeps } from '../context.js';
import { CliError, EXIT, usageError } from '../errors.js';
import { fetchWithTokenLocally } from './import-hosted.js';
import { checkInputFlags, formatSize, readImportInput, type ImportInput, type InputFlags } from './import-input.js';
import { resolveImportOrg } from './import-org.js';
import { createProgress, PROGRESS_MIN_BYTES, type Progress } from './import-progress.js';
import { countsLine, printImportReport } from './import-report.js';
import { orgPath } from './checks-org.js';

interface Options extends InputFlags {
  source: string;
  org?: string;
  dryRun?: boolean;
  local?: boolean;
  strict?: boolean;
  takeOver?: boolean;
  overwrite?: boolean;
}

/**
 * Whether an import carried over less than all: items skipped, or a setting without an
 * equivalent, so that a check may reach another verdict than the source tool did.
 */
const partial = (response: ImportResponse) => response.skipped > 0 || response.warnings.some((warning) => warning.code === 'UNSUPPORTED_SETTING');

/** Exit code 3 under --strict when the import was partial; else 0. */
const exitCode = (response: ImportResponse, strict?: boolean) => (strict && partial(response) ? EXIT.partial : EXIT.ok);

/** Converts with the importer modules in this process; unreadable input is one line, exit 1. */
async function convertHere(source: ImportSource, input: ConverterInput, progress: Progress, label: string) {
  try {
    return await convertImport(source, input, { onProgress: (done, total) => progress.count(`reading ${label}`, done, total) });
  } catch (error) {
    if (error instanceof ImportInputError) throw new CliError(`cannot import ${label} as ${source}: ${error.message}`);
    throw error;
  } finally {
    progress.done();
  }
}

/** `--local`: the same conversion the daemon runs, without a daemon; a preview only, against an empty organization. */
async function previewLocally(source: ImportSource, input: ImportInput, options: Options, deps: CommandDeps, progress: Progress): Promise<number> {
  let data: ConverterInput = input.bytes;
  if (IMPORT_REGISTRY[source].fetchesWithToken && !isSavedListing(input.bytes)) {
    progress.step(`fetching the monitors from the API of ${IMPORT_REGISTRY[source].toolName}`);
    try {
      data = await fetchWithTokenLocally(source, input.bytes, deps.env);
    } finally {
      progress.done();
    }
  }
  const result = await convertHere(source, data, progress, input.label);
  // Without a daemon nothing is known of existing checks: every converted check counts as new.
  const response = importResponse(source, true, result, () => 'create');
  if (deps.out.jsonMode) deps.out.json(response);
  else {
    printImportReport(deps.out, response, `Preview of ${input.label} as ${source} (--local: converted here, compared with an empty organization)`);
    deps.out.line();
    deps.out.info('Nothing was imported: --local only previews. Run without --local to import into the daemon.');
  }
  return exitCode(response, options.strict);
}

/** How one call of the convert endpoint runs. */
interface CallMode {
  dryRun: boolean;
  takeOver: boolean;
  overwrite: boolean;
  /** The digest of the preview the apply was confirmed on. */
  expect?: string;
}

/** One call of the convert endpoint with the raw input. */
async function convertOnDaemon(
  client: ApiClient,
  org: string,
  source: ImportSource,
  input: ImportInput,
  mode: CallMode,
  progress: Progress,
): Promise<ImportResponse> {
  progress.step(`${mode.dryRun ? 'previewing' : 'importing'} ${formatSize(input.bytes.length)} on the daemon`);
  try {
    return await client.request<ImportResponse>('POST', `${orgPath(org)}/checks/import/convert`, {
      query: {
        source,
        ...(mode.dryRun ? { dryRun: 'true' } : {}),
        ...(mode.takeOver ? { takeOver: 'true' } : {}),
        ...(mode.overwrite ? { overwrite: 'true' } : {}),
        ...(mode.expect ? { expect: mode.expect } : {}),
      },
      raw: input.bytes,
    });
  } finally {
    progress.done();
  }
}

/**
 * A database file is checked here by its header only (a damaged one is caught before megabytes
 * go over the network); the daemon reads it. Converting it here too would do the work twice.
 */
function checkDatabaseHeader(source: ImportSource, input: ImportInput): void {
  if (source !== 'selfhosted-monitor-db' || !isSqliteFile(input.bytes)) return;
  const problem = sqliteHeaderProblem(input.bytes);
  if (problem)
    throw new CliError(
      `cannot import ${input.label} as ${source}: the file starts like a SQLite database but ${problem}; copy it again while the self-hosted monitor is stopped`,
    );
}

/** Prints what an apply did. */
function reportApplied(deps: CommandDeps, org: string, applied: ImportResponse): void {
  if (deps.out.jsonMode) deps.out.json(applied);
  else {
    deps.out.line();
    deps.out.success(`imported into ${org}: ${countsLine(applied)}`);
  }
}

/**
 * `svc import --source S (--file PATH... | --stdin | --token-env VAR)`: with --yes, applies at once
 * (one upload); otherwise previews on the daemon and, after a confirmation, applies holding the
 * daemon to that preview (`expect=<digest>`: if the result would now differ, nothing is
 * written). Without a terminal it applies only with --yes; --dry-run stops after the preview;
 * --local converts here without a daemon; --take-over lets this source change checks another
 * source manages or a person made. Re-running is safe: checks are matched by slug, and a re-run
 * changes only the fields the source changed since the last import (a field changed here too is
 * a conflict, kept unless --overwrite).
 */
export async function run(options: Options, deps: CommandDeps): Promise<number> {
  const source = canonicalSource(options.source ?? '');
  if (!source) throw usageError(`--source must be one of ${describeImportSources()}; got "${options.source ?? ''}"`);
  const entry = IMPORT_REGISTRY[source];
  checkInputFlags(options, entry.fetchesWithToken, entry.multipleFiles === true);
  const local = Boolean(options.local);
  const yes = Boolean(deps.globals.yes);
  if (!local && !options.dryRun && !yes && !deps.prompts.interactive) {
    throw usageError('refusing to import without a terminal to confirm on: pass --yes to apply, or --dry-run to preview only');
  }

  const input = await readImportInput(options, deps.env);
  const progress = createProgress({ enabled: !deps.out.jsonMode && input.bytes.length >= PROGRESS_MIN_BYTES });
  if (local) return previewLocally(source, input, options, deps, progress);
  checkDatabaseHeader(source, input);

  const client = deps.client();
  const org = await resolveImportOrg(options, deps, client);
  const takeOver = Boolean(options.takeOver);
  const overwrite = Boolean(options.overwrite);
  if (yes && !options.dryRun) {
    const applied = await convertOnDaemon(client, org, source, input, { dryRun: false, takeOver, overwrite }, progress);
    reportApplied(deps, org, applied);
    return exitCode(applied, options.strict);
  }

  const preview = await convertOnDaemon(client, org, source, input, { dryRun: true, takeOver, overwrite }, progress);
  if (options.dryRun) {
    if (deps.out.jsonMode) deps.out.json(preview);
    else printImportReport(deps.out, preview, `Preview of ${input.label} as ${source} into ${org} (nothing written)`);
    return exitCode(preview, options.strict);
  }

  if (!deps.out.jsonMode) printImportReport(deps.out, preview, `Preview of ${input.label} as ${source} into ${org}`);
  deps.out.line();
  const go = await deps.prompts.confirm(`Import into ${org}: create ${preview.created}, update ${preview.updated}?`, '--yes');
  if (!go) {
    deps.out.info('Nothing imported.');
    return EXIT.ok;
  }
  try {
    const applied = await convertOnDaemon(client, org, source, input, { dryRun: false, takeOver, overwrite, expect: preview.digest }, progress);
    reportApplied(deps, org, applied);
    return exitCode(applied, options.strict);
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      throw new CliError(
        `${org} changed after the preview, so the import would no longer do what was shown; nothing was imported. Run the command again to see a new preview.`,
      );
    }
    throw error;
  }
}

import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'kysely';
import { MANAGED_LABEL_KEY, importResponse, type ConversionResult, type ImportResponse, type ImportSource, type ImportWarning } from '../../importers/index.js';
import { countChecks, refuseBeyondCheckLimit } from '../checks/check-limit.js';
import { refreshCheckStatisticsAfter } from '../checks/check-statistics.js';
import { upsertChecks, type Executor, type UpsertOutcome } from '../checks/check-store.js';
import type { AppDeps } from '../deps.js';
import { turnBetweenStatements } from '../db/executor.js';
import { inTransaction } from '../db/in-transaction.js';
import { conflict } from '../errors.js';
import { replaceImportedWindows } from '../maintenance/window-store.js';
import { reimportResolver } from './import-baselines.js';
import { keepPingTokens } from './keep-ping-tokens.js';
import { conversionDigest, importDigest } from './import-digest.js';
import { canonicalJson } from '../checks/canonical-json.js';

/** How an import runs: preview or apply, whether it takes over checks it does not own, and the digest it must match. */
export interface ImportRunOptions {
  dryRun: boolean;
  /** Change checks of the same slug that another source manages or that were made by hand. */
  takeOver?: boolean;
  /** On a re-run, take the source's value of a field changed both here and in the source (else the value here is kept). */
  overwrite?: boolean;
  /** The preview's digest: apply only when the result is still exactly that (else 409, nothing written). */
  expect?: string;
  /** `conversionDigest` of the result, when the worker that converted it computed it already. */
  conversionDigest?: string;
  /** `canonicalJson` of each of the result's checks, in order, when the worker computed them already. */
  canonicalChecks?: readonly string[];
}

/** The warning of a check left alone because it is not this source's. */
function ownedElsewhere(outcome: UpsertOutcome, item: string, source: ImportSource): ImportWarning {
  const owner = outcome.owner ? `is managed by the ${outcome.owner} import` : 'was created by hand';
  return {
    item,
    slug: outcome.slug,
    code: 'OWNED_ELSEWHERE',
    field: MANAGED_LABEL_KEY,
    message: `the check "${outcome.slug}" ${owner}; it was left as it is. Import with takeOver=true (svc import --take-over) to let ${source} manage it`,
  };
}

/**
 * Imports of one organization run one at a time across every daemon on the database, so that
 * two identical imports at once report what each really did (one creates, the other finds
 * them unchanged). PostgreSQL: a transaction-scoped advisory lock, released at commit or
 * rollback. SQLite: its single writer already serialises write transactions.
 */
async function lockImports(trx: Executor, kind: AppDeps['db']['kind'], orgUid: string): Promise<void> {
  if (kind === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${`svc-import:${orgUid}`}))`.execute(trx);
}

/**
 * Previews or applies a conversion in an organization; both take this one path, so a preview
 * reports exactly what the apply then does. Checks are matched by slug: new ones are created,
 * this source's changed ones updated in place (a re-run changes only the fields the source
 * changed since its last import: see import-baselines.ts), identical ones left alone, and those another
 * source manages or a person made are `conflict`s left alone unless `takeOver`. The apply is
 * one transaction, so a failure anywhere (a digest that no longer matches included) writes
 * nothing; the preview runs the same reads and writes nothing.
 */
export async function runImport(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'lifecycle' | 'logger'>,
  orgUid: string,
  source: ImportSource,
  result: ConversionResult,
  options: ImportRunOptions,
): Promise<ImportResponse> {
  const now = deps.clock.now();
  const owner = { key: MANAGED_LABEL_KEY, value: source, takeOver: options.takeOver === true };
  // The conversion's batches may all have been read in the turn that ended it (a conversion the
  // worker kept answers at once): other requests go first.
  await nextTurn();
  const { response, writes } = await inTransaction(deps.db.kysely, async (trx) => {
    if (!options.dryRun) await lockImports(trx, deps.db.kind, orgUid);
    const checkLimit = deps.config.organizations.checksLimit;
    const held = checkLimit > 0 ? await countChecks(trx, orgUid) : 0;
    const canonical = options.canonicalChecks;
    const bySlugText = canonical ? new Map(result.checks.map((check, index) => [check.slug, canonical[index]])) : undefined;
    const reimport = reimportResolver(source, options.overwrite === true, bySlugText);
    const outcomes = await upsertChecks(trx, orgUid, result.checks, { now, dryRun: options.dryRun, owner, resolver: reimport.resolver });
    // Thrown inside the transaction: the preview says so too, and an apply's writes are rolled back.
    refuseBeyondCheckLimit(held, outcomes.filter((outcome) => outcome.action === 'create').length, checkLimit);
    if (!options.dryRun) await reimport.record(trx, orgUid, canonical ?? result.checks.map((check) => canonicalJson(check)), outcomes, now);
    // The source's maintenance windows replace those its last import made.
    const windows = result.maintenance ?? [];
    const maintenanceWindows = options.dryRun ? windows.length : await replaceImportedWindows(trx, orgUid, source, windows, now);
    const outcomesBySlug = new Map(outcomes.map((outcome) => [outcome.slug, outcome]));
    const checksBySlug = new Map(result.checks.map((check) => [check.slug, check]));
    const inConflict = outcomes.filter((outcome) => outcome.action === 'conflict');
    const conflicts = inConflict.map((outcome) => ownedElsewhere(outcome, checksBySlug.get(outcome.slug)!.name, source));
    const tokenWarnings = await keepPingTokens(trx, deps.db.kind, result.pingTokens, outcomes, checksBySlug, { nowMs: now.getTime(), dryRun: options.dryRun });
    const fieldsOf = (slug: string) => {
      const detail = reimport.details.get(slug);
      return {
        ...(detail?.changes.length ? { changes: detail.changes } : {}),
        ...(detail?.conflicts.length ? { conflicts: detail.conflicts } : {}),
      };
    };
    const counted = importResponse(source, options.dryRun, result, (slug) => outcomesBySlug.get(slug)!.action, [...conflicts, ...tokenWarnings], fieldsOf);
    const digest = importDigest(
      options.conversionDigest ?? conversionDigest(result),
      outcomes.map((outcome) => outcome.action),
      inConflict.map((outcome) => outcome.owner ?? null),
      outcomes.map((outcome) => fieldsOf(outcome.slug)),
    );
    if (options.expect !== undefined && options.expect !== digest) {
      // Thrown inside the transaction: whatever the apply wrote is rolled back.
      throw conflict('IMPORT_CHANGED', 'The import would now differ from the preview it was confirmed on; nothing was written. Preview it again.');
    }
    // On SQLite, building the answer held the event loop, and the commit will again: other requests go between.
    await turnBetweenStatements(trx);
    // Checks created or changed: a large apply refreshes their statistics after its response.
    const writes = options.dryRun ? 0 : outcomes.filter((outcome) => outcome.action === 'create' || outcome.action === 'update').length;
    return { response: { ...counted, ...(windows.length > 0 ? { maintenanceWindows } : {}), digest }, writes };
  });
  // On SQLite the commit held the event loop: the response is written out in a turn of its own.
  await turnBetweenStatements(deps.db.kysely);
  refreshCheckStatisticsAfter(deps, writes);
  return response;
}

import { MANAGED_LABEL_KEY, importResponse, type ConversionResult, type ImportResponse, type ImportSource } from '../../importers/index.js';
import type { CheckDefinition } from '../../importers/catalog/index.js';
import { upsertChecks } from '../checks/check-store.js';
import type { AppDeps } from '../deps.js';

/** Converters add the managed label; making sure here keeps the promise even if one forgets. */
function managed(checks: readonly CheckDefinition[], source: ImportSource): CheckDefinition[] {
  return checks.map((check) =>
    check.labels[MANAGED_LABEL_KEY] === source ? check : { ...check, labels: { ...check.labels, [MANAGED_LABEL_KEY]: source } },
  );
}

/**
 * Previews or applies a conversion in an organization; both take this one path, so a preview
 * reports exactly what the apply then does. Checks are matched by slug: new ones are created,
 * changed ones updated in place, identical ones left alone. The apply is one transaction, so a
 * failure anywhere writes nothing; the preview runs the same reads and writes nothing.
 */
export async function runImport(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  orgUid: string,
  source: ImportSource,
  result: ConversionResult,
  options: { dryRun: boolean },
): Promise<ImportResponse> {
  const checks = managed(result.checks, source);
  const now = deps.clock.now();
  const outcomes = await deps.db.kysely
    .transaction()
    .execute((trx) => upsertChecks(trx, orgUid, checks, { now, dryRun: options.dryRun }));
  const actions = new Map(outcomes.map((outcome) => [outcome.slug, outcome.action]));
  return importResponse(source, options.dryRun, result, (slug) => actions.get(slug)!);
}

import type { CheckValidation } from '../../contract/index.js';
import { ApiError, type ApiClient } from '../client.js';
import type { CommandDeps } from '../context.js';
import { CliError } from '../errors.js';
import type { Output } from '../output.js';
import { allChecks } from './checks-fetch.js';
import { MANAGED_LABEL, readChecksFile, type CheckDefinition } from './checks-file.js';
import { orgPath, resolveOrg } from './checks-org.js';
import { changeLine, planApply, planChangesSomething, type ApplyPlan } from './checks-plan.js';

interface Options {
  file: string;
  prune?: boolean;
  dryRun?: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Validates every entry of the file with the daemon (which fills in the defaults, so the
 * comparison is on the stored form) and adds the managed label. Any invalid entry fails the
 * whole apply, with every problem listed, before anything is written.
 */
async function desiredChecks(entries: unknown[], file: string, client: ApiClient, org: string): Promise<CheckDefinition[]> {
  const problems: string[] = [];
  const checks: CheckDefinition[] = [];
  for (const [index, entry] of entries.entries()) {
    const where = `checks[${index}]${isRecord(entry) && typeof entry.slug === 'string' ? ` (${entry.slug})` : ''}`;
    if (!isRecord(entry)) {
      problems.push(`${where}: must be a mapping of check fields`);
      continue;
    }
    const labels = isRecord(entry.labels) ? entry.labels : {};
    try {
      const answer = await client.post<CheckValidation>(`${orgPath(org)}/checks/validate`, {
        ...entry,
        labels: { ...labels, [MANAGED_LABEL.key]: MANAGED_LABEL.value },
      });
      checks.push({ ...answer.check });
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'VALIDATION_FAILED')) throw error;
      problems.push(`${where}: ${error.message}`);
    }
  }
  const seen = new Set<string>();
  for (const check of checks) {
    if (seen.has(check.slug)) problems.push(`the slug "${check.slug}" is given to more than one check`);
    seen.add(check.slug);
  }
  // Invalid content of a file is a failure (1), not a usage error: the flags were right.
  if (problems.length > 0) throw new CliError(`${file} is not valid; nothing was changed:\n  ${problems.join('\n  ')}`);
  return checks;
}

/** Prints the plan as a diff: + create, ~ update (field by field), - delete. */
function printPlan(plan: ApplyPlan, out: Output, dryRun: boolean): void {
  const { color } = out;
  for (const check of plan.create) out.line(color.green(`+ ${check.slug}`) + `  ${check.type} ${check.target || ''}`.trimEnd());
  for (const update of plan.update) {
    out.line(
      color.yellow(`~ ${update.slug}`) +
        (update.takeOver ? `  (not managed yet: apply takes it over with the label ${MANAGED_LABEL.key}=${MANAGED_LABEL.value})` : ''),
    );
    for (const change of update.changes) out.line(`    ${changeLine(change.path, change.from, change.to)}`);
  }
  for (const slug of plan.delete) out.line(color.red(`- ${slug}`));
  const counts = `${plan.create.length} to create, ${plan.update.length} to update, ${plan.delete.length} to delete, ${plan.unchanged.length} unchanged`;
  out.line(dryRun ? `${counts} (dry run: nothing written)` : counts);
  if (plan.kept.length > 0)
    out.line(`${plan.kept.length} managed check${plan.kept.length === 1 ? '' : 's'} not in the file kept (${plan.kept.join(', ')}); --prune deletes them`);
}

/**
 * Refuses, before anything is written, a plan that would take the organization beyond the
 * checks it may hold (its `checkLimit`), so the daemon never refuses a create half-way through.
 */
async function refuseBeyondCheckLimit(plan: ApplyPlan, client: ApiClient, org: string, held: number): Promise<void> {
  const { checkLimit } = await client.get<{ checkLimit: number | null }>(orgPath(org));
  if (checkLimit === null || checkLimit === undefined) return;
  const after = held - plan.delete.length + plan.create.length;
  if (plan.create.length > 0 && after > checkLimit) {
    throw new CliError(`the organization may hold at most ${checkLimit} checks; it holds ${held} and the plan would leave ${after}; nothing was changed`);
  }
}

/** Carries the plan out: deletions first (they make room under the check limit), then creations, then changes. */
async function carryOut(plan: ApplyPlan, client: ApiClient, org: string): Promise<void> {
  const base = `${orgPath(org)}/checks`;
  for (const slug of plan.delete) await client.request('DELETE', `${base}/${encodeURIComponent(slug)}`);
  for (const check of plan.create) await client.post(base, check);
  for (const update of plan.update) await client.request('PATCH', `${base}/${encodeURIComponent(update.slug)}`, { body: update.patch });
}

/** `svc checks apply -f FILE [--prune] [--dry-run]`: makes the organization's checks match the file. */
export async function run(options: Options, deps: CommandDeps): Promise<void> {
  const entries = await readChecksFile(options.file);
  const org = await resolveOrg({}, deps);
  const client = deps.client();
  const desired = await desiredChecks(entries, options.file, client, org);
  const existing = await allChecks(client, org);
  const plan = planApply(desired, existing, Boolean(options.prune));
  const dryRun = Boolean(options.dryRun);
  await refuseBeyondCheckLimit(plan, client, org, existing.length);
  if (!dryRun && planChangesSomething(plan)) await carryOut(plan, client, org);
  if (deps.out.jsonMode) {
    return deps.out.json({
      org,
      dryRun,
      created: plan.create.map((check) => check.slug),
      updated: plan.update.map(({ slug, changes }) => ({ slug, changes })),
      deleted: plan.delete,
      unchanged: plan.unchanged,
      kept: plan.kept,
    });
  }
  printPlan(plan, deps.out, dryRun);
}

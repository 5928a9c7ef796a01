import type { Config } from '../config/config.js';
import type { Db } from '../db/connect.js';
import type { BootPolicy } from '../deps.js';
import type { Logger } from '../log.js';
import { readParameter } from '../parameters.js';
import { formatIssue, mergePolicy, validatePolicy, validatePolicyOverrides, type PolicyOverrides } from './password/index.js';

/** The system parameter holding the super admin's hashing overrides. */
export const HASHING_PARAMETER = 'auth.password';

/**
 * The policy this process runs with: env/file configuration with the stored overrides on top.
 * A malformed stored value never prevents start-up: it is logged and the prior policy kept.
 */
export async function resolveBootPolicy(db: Db, config: Config, logger: Logger): Promise<BootPolicy> {
  const base = config.auth.password;
  const stored = await readParameter({ db }, null, HASHING_PARAMETER);
  if (!stored.set) return { effective: base, applied: {} };
  const problem = stored.malformed !== undefined ? 'it is not a {"value": ...} document' : describe(validatePolicyOverrides(stored.value));
  const merged = problem ? base : mergePolicy(base, stored.value as PolicyOverrides);
  const { errors, warnings } = validatePolicy(merged);
  const mergedProblem = problem ?? describe(errors);
  if (mergedProblem) {
    logger.warn({ parameter: HASHING_PARAMETER }, `stored password hashing overrides ignored (${mergedProblem}); keeping the configured policy`);
    return { effective: base, applied: {} };
  }
  for (const warning of warnings) logger.warn(`password hashing: ${formatIssue(warning)}`);
  return { effective: merged, applied: (stored.value ?? {}) as PolicyOverrides };
}

const describe = (issues: { field: string; message: string }[]): string | undefined => (issues.length === 0 ? undefined : issues.map(formatIssue).join('; '));

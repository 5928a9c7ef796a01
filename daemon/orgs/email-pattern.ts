import vm from 'node:vm';
import type { User } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { joinOrganization } from '../access/membership.js';
import { requestMembership } from './membership-requests.js';

/** The organization parameter: a regular expression; a signed-up user whose address matches joins as `user`. */
export const EMAIL_PATTERN_PARAMETER = 'registration.email_pattern';

export const EMAIL_PATTERN_MAX_LENGTH = 256;

/** Why a pattern cannot be stored, or undefined when it can. */
export function emailPatternProblem(pattern: string): string | undefined {
  if (pattern.length === 0) return 'must not be empty (send null to remove it)';
  if (pattern.length > EMAIL_PATTERN_MAX_LENGTH) return `must be at most ${EMAIL_PATTERN_MAX_LENGTH} characters`;
  try {
    new RegExp(pattern, 'i');
  } catch (error) {
    return `is not a valid regular expression: ${(error as Error).message}`;
  }
  return undefined;
}

/**
 * Patterns are written by organization admins, so a pattern with catastrophic backtracking must
 * not stall the daemon's one thread at every sign-up: each runs in a V8 context with a time limit.
 */
// Generous enough that an ordinary pattern never hits it on a loaded machine; a catastrophic one
// (exponential backtracking) would run for minutes, so the bound still protects the daemon.
const MATCH_TIMEOUT_MS = 250;
let context: vm.Context | undefined;
const matcher = new vm.Script('new RegExp(pattern, "i").test(email)');

function safeTest(pattern: string, email: string): boolean | 'timeout' | 'invalid' {
  context ??= vm.createContext(Object.create(null));
  context.pattern = pattern;
  context.email = email;
  try {
    return matcher.runInContext(context, { timeout: MATCH_TIMEOUT_MS }) === true;
  } catch (error) {
    return (error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT' ? 'timeout' : 'invalid';
  }
}

/** The organizations whose `registration.email_pattern` matches the address. */
export async function organizationsMatchingEmail(deps: Pick<AppDeps, 'db' | 'logger'>, email: string): Promise<{ uid: string; slug: string }[]> {
  const rows = await deps.db.kysely
    .selectFrom('parameters')
    .innerJoin('organizations', 'organizations.uid', 'parameters.organization_uid')
    .select(['organizations.uid', 'organizations.slug', 'parameters.value'])
    .where('parameters.key', '=', EMAIL_PATTERN_PARAMETER)
    .execute();
  const matches: { uid: string; slug: string }[] = [];
  for (const row of rows) {
    let pattern: unknown;
    try {
      pattern = (JSON.parse(row.value) as { value?: unknown })?.value;
    } catch {
      pattern = undefined;
    }
    if (pattern === null) continue;
    if (typeof pattern !== 'string' || pattern === '') {
      deps.logger.warn({ org: row.slug, value: row.value }, `organization parameter ${EMAIL_PATTERN_PARAMETER} is not a pattern string; ignored`);
      continue;
    }
    const result = safeTest(pattern, email);
    if (result === true) matches.push({ uid: row.uid, slug: row.slug });
    else if (result !== false) {
      deps.logger.warn({ org: row.slug, pattern }, `organization parameter ${EMAIL_PATTERN_PARAMETER} ${result === 'timeout' ? 'took too long to match' : 'is not a valid regular expression'}; ignored`);
    }
  }
  return matches;
}

/**
 * Joins the user, as `user`, to every organization whose pattern matches their address. An
 * organization at its member limit gets a membership request instead, for an admin to decide.
 */
export async function joinByEmailPattern(deps: Pick<AppDeps, 'db' | 'clock' | 'logger'>, user: User): Promise<{ joined: string[]; requested: string[] }> {
  const joined: string[] = [];
  const requested: string[] = [];
  for (const org of await organizationsMatchingEmail(deps, user.email)) {
    const result = await joinOrganization(deps, { organizationUid: org.uid, userUid: user.uid, role: 'user', via: 'email_pattern' });
    if (result.status === 'joined') joined.push(org.slug);
    else if (result.status === 'member-limit') {
      await requestMembership(deps, { organizationUid: org.uid, userUid: user.uid, via: 'email_pattern', message: null });
      requested.push(org.slug);
    }
  }
  if (joined.length || requested.length) deps.logger.info({ user: user.uid, joined, requested }, 'registration e-mail pattern matched');
  return { joined, requested };
}

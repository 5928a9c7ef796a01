import type { User } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { joinOrganization } from '../access/membership.js';
import { requestMembership } from './membership-requests.js';
import { PER_PATTERN_MS, TOTAL_MS, type PatternOutcome } from './pattern-matcher.js';

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

const SKIP_REASON: Record<Exclude<PatternOutcome, 'match' | 'no-match'>, string> = {
  timeout: `took longer than ${PER_PATTERN_MS} ms to match`,
  invalid: 'is not a valid regular expression',
  skipped: `was not tried: matching all patterns took longer than ${TOTAL_MS} ms`,
};

/**
 * The organizations whose `registration.email_pattern` matches the address. The matching runs
 * on a worker thread, bounded per pattern and in total (see pattern-matcher.ts); a pattern that
 * is not a string, not valid, too slow or not reached in time is skipped with a warning.
 */
export async function organizationsMatchingEmail(deps: Pick<AppDeps, 'db' | 'logger' | 'caches'>, email: string): Promise<{ uid: string; slug: string }[]> {
  const rows = await deps.db.kysely
    .selectFrom('parameters')
    .innerJoin('organizations', 'organizations.uid', 'parameters.organization_uid')
    .select(['organizations.uid', 'organizations.slug', 'parameters.value'])
    .where('parameters.key', '=', EMAIL_PATTERN_PARAMETER)
    .execute();
  const candidates: { uid: string; slug: string; pattern: string }[] = [];
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
    candidates.push({ uid: row.uid, slug: row.slug, pattern });
  }
  const outcomes = await deps.caches.patterns.match(
    email,
    candidates.map((candidate) => candidate.pattern),
  );
  const matches: { uid: string; slug: string }[] = [];
  for (const [index, { uid, slug, pattern }] of candidates.entries()) {
    const outcome = outcomes[index];
    if (outcome === 'match') matches.push({ uid, slug });
    else if (outcome !== 'no-match')
      deps.logger.warn({ org: slug, pattern }, `organization parameter ${EMAIL_PATTERN_PARAMETER} ${SKIP_REASON[outcome]}; ignored`);
  }
  return matches;
}

/**
 * Joins the user, as `user`, to every organization whose pattern matches their address. An
 * organization at its member limit gets a membership request instead, for an admin to decide.
 */
export async function joinByEmailPattern(
  deps: Pick<AppDeps, 'db' | 'clock' | 'logger' | 'caches'>,
  user: User,
): Promise<{ joined: string[]; requested: string[] }> {
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

/**
 * Without SMTP nothing can be verified, so an address matching a pattern joins at sign-up on
 * its word alone (the documented default). Said once at start-up, so an operator who set
 * patterns learns that anyone may sign up as someone@their-domain and walk in.
 */
export async function warnOfUnverifiedPatternJoins(deps: Pick<AppDeps, 'db' | 'logger' | 'mailer'>): Promise<void> {
  if (deps.mailer.enabled) return;
  const rows = await deps.db.kysely
    .selectFrom('parameters')
    .innerJoin('organizations', 'organizations.uid', 'parameters.organization_uid')
    .select('organizations.slug')
    .where('parameters.key', '=', EMAIL_PATTERN_PARAMETER)
    .orderBy('organizations.slug')
    .limit(11)
    .execute();
  if (rows.length === 0) return;
  const orgs = rows.slice(0, 10).map((row) => row.slug);
  deps.logger.warn(
    { orgs, more: rows.length > 10 },
    `SMTP is not configured, so sign-ups whose address matches an organization's ${EMAIL_PATTERN_PARAMETER} join it without proving the address; configure SMTP (SVC_SMTP_URL) to make them verify it first`,
  );
}

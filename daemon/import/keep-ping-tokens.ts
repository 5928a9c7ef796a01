import { sql } from 'kysely';
import type { ImportWarning } from '../../importers/index.js';
import type { CheckDefinition } from '../../checks/index.js';
import type { UpsertOutcome } from '../checks/check-store.js';
import type { DatabaseKind } from '../db/connect.js';
import type { Executor } from '../db/executor.js';
import { insertStates } from '../runner/check-states.js';

// A heartbeat imported from a tool keeps the ping token it had there, so that the job's URL
// changes only in its host. The token is a check's state (check_states.ping_token), not its
// definition: it is written when the import creates the check, and a re-run leaves the
// check's token as it is (the kept one, or one rotated here since).

/** What a kept token may look like: URL-safe, long enough not to be guessed (Uptime Kuma 1.x made 10 characters). */
const KEEPABLE = /^[A-Za-z0-9._~-]{10,128}$/;

/** Tokens looked up per statement. */
const HELD_LOOKUP = 2000;

const dropped = (item: string, slug: string, why: string): ImportWarning => ({
  item,
  slug,
  code: 'SECRET_DROPPED',
  field: 'pingToken',
  message: `the ping token of the source was not kept (${why}); the check has a new ping URL: point the job at it`,
});

/**
 * Writes the source's ping token of each heartbeat check the import creates, in the state row
 * it makes for it (a preview only reads; `checks` are the import's checks by slug), and answers
 * a warning for each token that could not be kept: one another check holds already (the check
 * keeps a fresh token), or one not fit to be a token. Tokens never appear in a warning.
 */
export async function keepPingTokens(
  db: Executor,
  kind: DatabaseKind,
  pingTokens: Readonly<Record<string, string>> | undefined,
  outcomes: readonly UpsertOutcome[],
  checks: ReadonlyMap<string, Pick<CheckDefinition, 'name' | 'intervalSeconds'>>,
  options: { nowMs: number; dryRun: boolean },
): Promise<ImportWarning[]> {
  if (!pingTokens) return [];
  const created = outcomes.filter((outcome) => outcome.action === 'create' && pingTokens[outcome.slug] !== undefined);
  if (created.length === 0) return [];
  const warnings: ImportWarning[] = [];
  // Tokens are unique across organizations, whose imports run at once: on PostgreSQL the tokens
  // held are read under one lock, kept until the transaction ends, so a token taken by an import
  // still committing is seen as held instead of failing this one's insert. SQLite writes one
  // transaction at a time anyway.
  if (!options.dryRun && kind === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('svc-import-ping-tokens'))`.execute(db);
  const tokens = created.map((outcome) => pingTokens[outcome.slug]);
  const held = new Set<string>();
  for (let i = 0; i < tokens.length; i += HELD_LOOKUP) {
    const rows = await db
      .selectFrom('check_states')
      .select('ping_token')
      .where('ping_token', 'in', tokens.slice(i, i + HELD_LOOKUP))
      .execute();
    for (const row of rows) held.add(row.ping_token);
  }
  const kept: Array<{ uid?: string; intervalSeconds: number; token: string }> = [];
  const claimed = new Set<string>();
  for (const outcome of created) {
    const token = pingTokens[outcome.slug];
    const check = checks.get(outcome.slug)!;
    const item = check.name;
    if (!KEEPABLE.test(token)) warnings.push(dropped(item, outcome.slug, 'it is not 10 to 128 URL-safe characters'));
    else if (held.has(token) || claimed.has(token)) warnings.push(dropped(item, outcome.slug, 'another check already has it'));
    else {
      claimed.add(token);
      kept.push({ uid: outcome.uid, intervalSeconds: check.intervalSeconds, token });
    }
  }
  if (options.dryRun || kept.length === 0) return warnings;
  // The state rows of the checks just created are made with their kept tokens, from the
  // intervals the import has at hand: nothing is read back.
  const made = await insertStates(
    db,
    options.nowMs,
    kept.map(({ uid, intervalSeconds, token }) => ({ uid: uid!, intervalSeconds, pingToken: token })),
  );
  if (made === kept.length) return warnings;
  // Some row was made meanwhile (with a fresh token): the tokens are written over, a statement
  // per 500 checks, not per check: ten thousand heartbeats are one import.
  for (let i = 0; i < kept.length; i += 500) {
    const chunk = kept.slice(i, i + 500);
    const cases = sql.join(
      chunk.map(({ uid, token }) => sql`when ${uid} then ${token}`),
      sql` `,
    );
    await sql`update check_states set ping_token = case check_uid ${cases} end
      where check_uid in (${sql.join(chunk.map(({ uid }) => uid))})`.execute(db);
  }
  return warnings;
}

import { isoIn } from '../clock.js';
import type { User } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { unauthorized } from '../errors.js';
import { randomToken, sha256 } from '../crypto/tokens.js';

/** A hand-off code works once and for this long (SPEC.md Limits). */
export const HANDOFF_TTL_SECONDS = 60;

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/**
 * Parks a completed external sign-in under a one-time code for the dashboard to exchange.
 * The code is 32 random bytes; only its SHA-256 is stored, so the table holds nothing usable.
 */
export async function issueHandoffCode(deps: Deps, user: Pick<User, 'uid'>, method: string, returnTo: string): Promise<string> {
  const code = randomToken(32);
  const now = deps.clock.now();
  // Old rows are only history; sweep the ones a day past their expiry.
  await deps.db.kysely
    .deleteFrom('handoff_codes')
    .where('expires_at', '<', new Date(now.getTime() - 86_400_000).toISOString())
    .execute();
  await deps.db.kysely
    .insertInto('handoff_codes')
    .values({
      code_hash: sha256(code),
      user_uid: user.uid,
      method,
      return_to: returnTo,
      created_at: now.toISOString(),
      expires_at: isoIn(deps.clock, HANDOFF_TTL_SECONDS),
      consumed_at: null,
    })
    .execute();
  return code;
}

/**
 * Consumes a hand-off code. One conditional UPDATE both checks and marks it, so of any number of
 * concurrent exchanges, on any replica, exactly one gets a row back. Reused, expired and unknown
 * codes answer the same 401.
 */
export async function consumeHandoffCode(deps: Deps, code: string): Promise<{ userUid: string; method: string; returnTo: string }> {
  const now = deps.clock.now().toISOString();
  const row = await deps.db.kysely
    .updateTable('handoff_codes')
    .set({ consumed_at: now })
    .where('code_hash', '=', sha256(code))
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_uid', 'method', 'return_to'])
    .executeTakeFirst();
  if (!row) throw unauthorized('The sign-in code is unknown, expired or already used; sign in again.');
  return { userUid: row.user_uid, method: row.method, returnTo: row.return_to };
}

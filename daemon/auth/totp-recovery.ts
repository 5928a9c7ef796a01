import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../deps.js';
import { sha256 } from '../crypto/tokens.js';
import { inTransaction } from '../db/in-transaction.js';

/** How many recovery codes a confirmation issues. */
export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** Spaces, dashes and case do not matter when a code is typed back. */
const normalize = (code: string) => code.toLowerCase().replace(/[\s-]+/g, '');

/** One code: 10 characters from an alphabet without look-alikes (about 49 bits), as `xxxxx-xxxxx`. */
function newCode(): string {
  const bytes = randomBytes(10);
  let text = '';
  for (const byte of bytes) text += ALPHABET[byte % ALPHABET.length];
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}

/** Replaces the account's recovery codes with new ones; only their SHA-256 is stored. */
export async function issueRecoveryCodes(deps: Deps, userUid: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  const now = deps.clock.now().toISOString();
  await inTransaction(deps.db.kysely, async (trx) => {
    await trx.deleteFrom('recovery_codes').where('user_uid', '=', userUid).execute();
    await trx
      .insertInto('recovery_codes')
      .values(codes.map((code) => ({ code_hash: sha256(normalize(code)), user_uid: userUid, created_at: now, used_at: null })))
      .execute();
  });
  return codes;
}

/** Uses up a recovery code: the conditional update lets each code succeed exactly once. */
export async function consumeRecoveryCode(deps: Deps, userUid: string, code: string): Promise<boolean> {
  const clean = normalize(code);
  if (clean.length === 0 || clean.length > 64) return false;
  const used = await deps.db.kysely
    .updateTable('recovery_codes')
    .set({ used_at: deps.clock.now().toISOString() })
    .where('code_hash', '=', sha256(clean))
    .where('user_uid', '=', userUid)
    .where('used_at', 'is', null)
    .returning('code_hash')
    .executeTakeFirst();
  return Boolean(used);
}

/** Removes every recovery code of an account (2FA turned off). */
export async function deleteRecoveryCodes(deps: Pick<AppDeps, 'db'>, userUid: string): Promise<void> {
  await deps.db.kysely.deleteFrom('recovery_codes').where('user_uid', '=', userUid).execute();
}

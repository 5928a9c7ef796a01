import { recordAuditInUserOrganizations } from '../audit/audit-log.js';
import type { Session, UserProfile } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { passwordChangedNotice } from '../mail/notices.js';
import { revokeUserSessions } from '../auth/sessions.js';
import { describeLiveTokens, livePersonalTokens, revokeAllPersonalTokens } from '../auth/token-management.js';
import { inTransaction } from '../db/in-transaction.js';

/**
 * Sets a new password the holder has proven they may set (the current one was verified). In one
 * transaction: the hash, the end of every other session, with `revokeTokens` every personal access
 * token, and `auth.password_changed` in each organization of the account. Then a notice listing
 * the tokens that still work goes to the account's address.
 */
export async function changePassword(
  deps: Pick<AppDeps, 'db' | 'clock' | 'hasher' | 'mailer' | 'logger'>,
  input: { user: UserProfile; newPassword: string; keepSession?: Session; revokeTokens: boolean },
): Promise<void> {
  const passwordHash = await deps.hasher.hash(input.newPassword);
  const now = deps.clock.now().toISOString();
  const { user } = input;
  const revokedTokens = await inTransaction(deps.db.kysely, async (trx) => {
    await trx.updateTable('users').set({ password_hash: passwordHash, must_change_password: 0, updated_at: now }).where('uid', '=', user.uid).execute();
    await revokeUserSessions(deps, user.uid, { exceptIdHash: input.keepSession?.id_hash, trx });
    const revoked = input.revokeTokens ? await revokeAllPersonalTokens(trx, deps.clock, user.uid, 'password_change') : 0;
    await recordAuditInUserOrganizations(trx, deps.clock, user.uid, {
      kind: 'auth.password_changed',
      actorUid: user.uid,
      targetUid: user.uid,
      data: { revokedTokens: revoked },
    });
    return revoked;
  });
  deps.logger.info({ user: user.uid, revokedTokens }, 'password changed; other sessions signed out');
  if (deps.mailer.enabled) {
    const tokens = describeLiveTokens(await livePersonalTokens(deps, user.uid));
    await deps.mailer.send(passwordChangedNotice({ to: user.email, at: now, tokens }));
  }
}

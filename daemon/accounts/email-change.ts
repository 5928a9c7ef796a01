import { recordAuditInUserOrganizations } from '../audit/audit-log.js';
import { isUniqueViolation } from '../checks/unique-violation.js';
import type { User, UserProfile } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { conflict } from '../errors.js';
import { emailChangedNotice } from '../mail/notices.js';
import { issueEmailVerification, sendVerificationMail } from './email-verification.js';
import { revokeUserSessions } from '../auth/sessions.js';
import { describeLiveTokens, livePersonalTokens, revokeAllPersonalTokens } from '../auth/token-management.js';
import { findUserByEmail, normalizeEmail, requireUser } from './users.js';
import { inTransaction } from '../db/in-transaction.js';

const emailTaken = () => conflict('EMAIL_TAKEN', 'Another account already uses this e-mail address.');

/**
 * Changes an account's sign-in address; the caller has already authorised it (current password
 * for the user, super-admin flag otherwise). In one transaction: the address is replaced and
 * marked unverified, the user's other sessions end (all but `keepSessionIdHash`), with
 * `revokeTokens` every personal access token is revoked, a verification
 * link is issued, and `auth.email_changed` goes to the audit log of each organization the user
 * belongs to. After it commits: a notice to the previous address (listing the tokens that still
 * work) and the link to the new one.
 * Refuses an address another account uses (case-insensitively) with 409 `EMAIL_TAKEN`.
 */
export async function changeEmail(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'mailer' | 'logger'>,
  input: { target: UserProfile; newEmail: string; actor: UserProfile; by: 'self' | 'super_admin'; keepSessionIdHash?: string; revokeTokens?: boolean },
): Promise<User> {
  const oldEmail = input.target.email;
  const newEmail = normalizeEmail(input.newEmail);
  if (newEmail === oldEmail) return requireUser(deps, input.target.uid);
  const holder = await findUserByEmail(deps, newEmail);
  if (holder && holder.uid !== input.target.uid) throw emailTaken();

  const now = deps.clock.now().toISOString();
  const { user, verification } = await inTransaction(deps.db.kysely, async (trx) => {
    const user = await trx
      .updateTable('users')
      .set({ email: newEmail, email_verified: 0, updated_at: now })
      .where('uid', '=', input.target.uid)
      .returningAll()
      .executeTakeFirstOrThrow();
    await revokeUserSessions(deps, user.uid, { exceptIdHash: input.keepSessionIdHash, trx });
    if (input.revokeTokens) await revokeAllPersonalTokens(trx, deps.clock, user.uid, 'email_change');
    const verification = await issueEmailVerification(trx, deps, { userUid: user.uid, email: newEmail, purpose: 'email_change' });
    await recordAuditInUserOrganizations(trx, deps.clock, user.uid, {
      kind: 'auth.email_changed',
      actorUid: input.actor.uid,
      targetUid: user.uid,
      data: { oldEmail, newEmail, by: input.by },
    });
    return { user, verification };
  }).catch((error: unknown) => {
    // Another account took the address between the check and the update.
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  });

  deps.logger.info({ user: user.uid, actor: input.actor.uid, by: input.by }, 'account e-mail address changed');
  if (deps.mailer.enabled) {
    const tokens = describeLiveTokens(await livePersonalTokens(deps, user.uid));
    await deps.mailer.send(emailChangedNotice({ to: oldEmail, newEmail, bySuperAdmin: input.by === 'super_admin', at: now, tokens }));
    await sendVerificationMail(deps, verification);
  }
  return user;
}

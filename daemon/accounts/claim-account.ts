import { recordAuditInUserOrganizations } from '../audit/audit-log.js';
import type { User } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import type { Mail } from '../mail/mailer.js';
import { revokeUserSessions } from '../auth/sessions.js';
import type { Executor } from '../db/executor.js';

/** What was taken from the previous holder of an account, for the audit log and the notice. */
export interface ClaimedCredentials {
  password: boolean;
  sessions: number;
  tokens: number;
  twoFactor: boolean;
  identities: number;
}

/**
 * Hands an account whose address was never verified to the person who has just proven they own
 * that address (`via` an identity provider that vouches for it, or `password_reset`: a link
 * mailed to it). Whoever held the account before (someone who registered the
 * address first, or changed theirs to it) never proved it, so nothing of theirs may keep working:
 * in the transaction `trx` the password is removed, every session, hand-off code and personal
 * access token ends, the second factor and its recovery codes go, other linked identities are
 * unlinked, open reset and verification links die, and `auth.account_claimed` is recorded in
 * each organization of the account. The caller links the new identity (or sets the new password)
 * in the same transaction.
 */
export async function claimUnverifiedAccount(deps: Pick<AppDeps, 'db' | 'clock'>, trx: Executor, user: User, via: string): Promise<ClaimedCredentials> {
  const now = deps.clock.now().toISOString();
  const before = await trx
    .selectFrom('users')
    .select(['password_hash', 'totp_secret', 'totp_pending_secret'])
    .where('uid', '=', user.uid)
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('users')
    .set({
      password_hash: null,
      must_change_password: 0,
      email_verified: 1,
      totp_secret: null,
      totp_pending_secret: null,
      totp_enabled_at: null,
      updated_at: now,
    })
    .where('uid', '=', user.uid)
    .execute();
  const sessions = await revokeUserSessions(deps, user.uid, { trx });
  await trx.updateTable('handoff_codes').set({ consumed_at: now }).where('user_uid', '=', user.uid).where('consumed_at', 'is', null).execute();
  const tokens = await trx
    .updateTable('personal_tokens')
    .set({ revoked_at: now })
    .where('user_uid', '=', user.uid)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  await trx.deleteFrom('recovery_codes').where('user_uid', '=', user.uid).execute();
  await trx.deleteFrom('totp_used_steps').where('user_uid', '=', user.uid).execute();
  const identities = await trx.deleteFrom('linked_identities').where('user_uid', '=', user.uid).executeTakeFirst();
  await trx.updateTable('password_resets').set({ used_at: now }).where('user_uid', '=', user.uid).where('used_at', 'is', null).execute();
  await trx.updateTable('email_verifications').set({ used_at: now }).where('user_uid', '=', user.uid).where('used_at', 'is', null).execute();
  // Install authorizations started by the previous holder must not complete on the owner's behalf.
  await trx.deleteFrom('oauth_states').where('user_uid', '=', user.uid).execute();
  const claimed: ClaimedCredentials = {
    password: before.password_hash !== null,
    sessions,
    tokens: Number(tokens.numUpdatedRows),
    twoFactor: before.totp_secret !== null || before.totp_pending_secret !== null,
    identities: Number(identities.numDeletedRows),
  };
  await recordAuditInUserOrganizations(trx, deps.clock, user.uid, {
    kind: 'auth.account_claimed',
    actorUid: user.uid,
    targetUid: user.uid,
    data: { via, ...claimed },
  });
  return claimed;
}

/** The notice to the owner: what an unverified holder had and what was ended. */
export function accountClaimedNotice(input: { to: string; provider: string; claimed: ClaimedCredentials; at: string }): Mail {
  const { claimed } = input;
  const ended = [
    claimed.password && 'the password that had been set on it',
    claimed.sessions > 0 && `${claimed.sessions} signed-in session(s)`,
    claimed.tokens > 0 && `${claimed.tokens} personal access token(s)`,
    claimed.twoFactor && 'a two-factor authenticator and its recovery codes',
    claimed.identities > 0 && `${claimed.identities} other sign-in identity link(s)`,
  ].filter(Boolean);
  return {
    to: input.to,
    subject: 'You now hold the account of your e-mail address',
    text: [
      `On ${input.at} you signed in with ${input.provider}, which confirmed that you own this address.`,
      'An account already used this address, but its address had never been confirmed: someone may have registered it, or changed their own address to it, before you.',
      'The account is now yours alone. Everything that let its previous holder in was ended:',
      ...(ended.length > 0 ? ended.map((item) => `- ${item}`) : ['- nothing was live']),
      '',
      'Look through its organizations and members: they are what the account held before. Set a password (password reset) if you want one.',
    ].join('\n'),
  };
}

import type { MfaChallenge as ContractMfaChallenge } from '../../contract/responses.js';
import type { Context } from 'koa';
import type { User } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { unauthorized } from '../errors.js';
import { createSession, signPurposeToken, verifyPurposeToken, type SessionResponse } from './sessions.js';
import { acceptTotpCode, limitedSecondFactor } from './totp.js';
import { consumeRecoveryCode } from './totp-recovery.js';

/** An mfaToken is good for this long, and only at /auth/2fa/verify. */
export const MFA_TOKEN_TTL_SECONDS = 300;

/** What a first factor answers for an account with 2FA. */
export type MfaChallenge = ContractMfaChallenge;

/** The confirmed TOTP secret of an account (decrypted), if it has 2FA. */
export async function totpSecretOf(deps: Pick<AppDeps, 'db' | 'keyring'>, userUid: string): Promise<string | null> {
  const row = await deps.db.kysely.selectFrom('users').select('totp_secret').where('uid', '=', userUid).executeTakeFirst();
  return row?.totp_secret ? deps.keyring.reveal(row.totp_secret) : null;
}

/** Whether an account has 2FA on; reads the column without decrypting it. */
async function hasTwoFactor(deps: Pick<AppDeps, 'db'>, userUid: string): Promise<boolean> {
  const row = await deps.db.kysely.selectFrom('users').select('totp_secret').where('uid', '=', userUid).executeTakeFirst();
  return Boolean(row?.totp_secret);
}

/**
 * After a first factor: a session, or for an account with 2FA a short-lived `mfa` token naming
 * the account and how it signed in (session checks refuse it: its `typ` is not `session`).
 */
export async function sessionOrChallenge(deps: AppDeps, user: User, method: string, ctx?: Context): Promise<SessionResponse | MfaChallenge> {
  if (await hasTwoFactor(deps, user.uid)) {
    return { mfaRequired: true, mfaToken: await signPurposeToken(deps, 'mfa', user.uid, MFA_TOKEN_TTL_SECONDS, { method }) };
  }
  return createSession(deps, user, method, ctx);
}

/** The second step: an authenticator code or a recovery code for the mfa token's account. */
export async function completeSecondFactor(
  deps: AppDeps,
  ctx: Context,
  input: { mfaToken: string; code?: string; recoveryCode?: string },
): Promise<SessionResponse> {
  const claims = await verifyPurposeToken(deps, input.mfaToken, 'mfa');
  // The whole row, TOTP columns included: one read gives the account and its secret.
  const user = await deps.db.kysely.selectFrom('users').selectAll().where('uid', '=', claims.sub).executeTakeFirst();
  const secret = user?.totp_secret ? deps.keyring.reveal(user.totp_secret) : undefined;
  if (!user || !secret) throw unauthorized('The token is invalid or has expired.');
  await limitedSecondFactor(deps, user.uid, () =>
    input.code !== undefined ? acceptTotpCode(deps, user.uid, secret, input.code) : consumeRecoveryCode(deps, user.uid, input.recoveryCode ?? ''),
  );
  const first = typeof claims.method === 'string' ? claims.method : 'password';
  return createSession(deps, user, `${first}+${input.code !== undefined ? 'totp' : 'recovery'}`, ctx);
}

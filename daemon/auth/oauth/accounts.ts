import type { User } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { createUser, findUser, findUserByEmail, normalizeEmail } from '../../accounts/users.js';
import type { ExternalProfile } from './catalog.js';
import { accountClaimedNotice, claimUnverifiedAccount } from '../../accounts/claim-account.js';
import { SignInError } from './provider-error.js';
import { registrationPatternAllows } from '../../accounts/registration-pattern.js';
import type { Executor } from '../../db/executor.js';
import { inTransaction } from '../../db/in-transaction.js';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger' | 'mailer' | 'caches'>;

/**
 * The account of an external sign-in: the one linked to (provider, subject); else the account
 * with the provider-verified e-mail, which gets linked (an account whose address was never
 * verified is taken over, its previous holder's credentials ended); else a new account without
 * a password (only for a verified e-mail the registration pattern admits).
 */
export async function resolveExternalAccount(deps: Deps, provider: string, profile: ExternalProfile): Promise<{ user: User; created: boolean }> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await resolveOnce(deps, provider, profile);
    } catch (error) {
      // Two first sign-ins of one person at once: the loser finds what the winner created.
      const lostRace = error instanceof AppError && error.code === 'CONFLICT';
      if (!lostRace || attempt > 0) throw error;
    }
  }
}

async function resolveOnce(deps: Deps, provider: string, profile: ExternalProfile): Promise<{ user: User; created: boolean }> {
  const now = deps.clock.now().toISOString();
  const linked = await deps.db.kysely
    .selectFrom('linked_identities')
    .select('user_uid')
    .where('provider', '=', provider)
    .where('subject', '=', profile.subject)
    .executeTakeFirst();
  if (linked) {
    const user = await findUser(deps, linked.user_uid);
    if (user) {
      await deps.db.kysely
        .updateTable('linked_identities')
        .set({ last_sign_in_at: now, email: profile.email ? normalizeEmail(profile.email) : null })
        .where('provider', '=', provider)
        .where('subject', '=', profile.subject)
        .execute();
      return { user, created: false };
    }
  }
  if (!profile.email || !profile.emailVerified) {
    throw new SignInError('email_not_verified', `${provider} did not confirm an e-mail address for this account`);
  }
  const email = normalizeEmail(profile.email);
  const existing = await findUserByEmail(deps, email);
  if (existing?.email_verified) {
    await link(deps.db.kysely, deps, provider, profile, existing.uid);
    deps.logger.info({ user: existing.uid, provider }, 'external identity linked to an existing account by verified e-mail');
    return { user: existing, created: false };
  }
  if (existing) return claimAccount(deps, provider, profile, existing);
  if (!(await registrationPatternAllows(deps, email))) {
    throw new SignInError('registration_closed', `registration is not open to the e-mail address of this ${provider} account`);
  }
  const user = await createUser(deps, { email, name: profile.name, passwordHash: null, emailVerified: true });
  await link(deps.db.kysely, deps, provider, profile, user.uid);
  deps.logger.info({ user: user.uid, provider }, 'account created by external sign-in');
  return { user, created: true };
}

/**
 * The address of `user` was never verified, so whoever holds the account has not proven it: the
 * provider's owner of the address takes the account over, and every credential of the previous
 * holder ends in the same transaction as the link (docs/oauth.md, "Unverified accounts").
 */
async function claimAccount(deps: Deps, provider: string, profile: ExternalProfile, user: User): Promise<{ user: User; created: boolean }> {
  const claimed = await inTransaction(deps.db.kysely, async (trx) => {
    // Only while the account still has this address and it is still unverified.
    const still = await trx
      .selectFrom('users')
      .select('uid')
      .where('uid', '=', user.uid)
      .where('email', '=', user.email)
      .where('email_verified', '=', 0)
      .executeTakeFirst();
    if (!still) throw new AppError('CONFLICT', 'account changed concurrently', { reason: 'ACCOUNT_CHANGED' });
    const claimed = await claimUnverifiedAccount(deps, trx, user, provider);
    await link(trx, deps, provider, profile, user.uid);
    return claimed;
  });
  const at = deps.clock.now().toISOString();
  deps.logger.warn(
    { user: user.uid, provider, ...claimed },
    'account with an unverified address taken over by the verified owner of the address; the previous holder lost every credential',
  );
  if (deps.mailer.enabled) {
    await deps.mailer
      .send(accountClaimedNotice({ to: user.email, provider, claimed, at }))
      .catch((error: unknown) => deps.logger.warn({ err: (error as Error).message }, 'account claimed notice failed'));
  }
  return { user: { ...user, password_hash: null, email_verified: 1, must_change_password: 0 }, created: false };
}

async function link(db: Executor, deps: Pick<AppDeps, 'clock'>, provider: string, profile: ExternalProfile, userUid: string): Promise<void> {
  const now = deps.clock.now().toISOString();
  const inserted = await db
    .insertInto('linked_identities')
    .values({
      provider,
      subject: profile.subject,
      user_uid: userUid,
      email: profile.email ? normalizeEmail(profile.email) : null,
      created_at: now,
      last_sign_in_at: now,
    })
    .onConflict((oc) => oc.columns(['provider', 'subject']).doNothing())
    .returning('subject')
    .executeTakeFirst();
  if (!inserted) throw new AppError('CONFLICT', 'identity linked concurrently', { reason: 'IDENTITY_LINKED' });
}

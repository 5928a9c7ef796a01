import type { User } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { createUser, findUser, findUserByEmail, normalizeEmail } from '../users.js';
import type { ExternalProfile } from './catalog.js';
import { SignInError } from './provider-error.js';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>;

/**
 * The account of an external sign-in: the one linked to (provider, subject); else the account
 * with the provider-verified e-mail, which gets linked; else a new account without a password
 * (only for a verified e-mail the registration pattern admits).
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
  if (existing) {
    await link(deps, provider, profile, existing.uid);
    // The provider has just proven the address.
    if (!existing.email_verified) {
      await deps.db.kysely.updateTable('users').set({ email_verified: 1, updated_at: now }).where('uid', '=', existing.uid).execute();
    }
    deps.logger.info({ user: existing.uid, provider }, 'external identity linked to an existing account by verified e-mail');
    return { user: { ...existing, email_verified: 1 }, created: false };
  }
  const pattern = deps.config.auth.registrationEmailPattern;
  if (pattern && !new RegExp(pattern).test(email)) {
    throw new SignInError('registration_closed', `registration is not open to the e-mail address of this ${provider} account`);
  }
  const user = await createUser(deps, { email, name: profile.name, passwordHash: null, emailVerified: true });
  await link(deps, provider, profile, user.uid);
  deps.logger.info({ user: user.uid, provider }, 'account created by external sign-in');
  return { user, created: true };
}

async function link(deps: Deps, provider: string, profile: ExternalProfile, userUid: string): Promise<void> {
  const now = deps.clock.now().toISOString();
  const inserted = await deps.db.kysely
    .insertInto('linked_identities')
    .values({ provider, subject: profile.subject, user_uid: userUid, email: profile.email ? normalizeEmail(profile.email) : null, created_at: now, last_sign_in_at: now })
    .onConflict((oc) => oc.columns(['provider', 'subject']).doNothing())
    .returning('subject')
    .executeTakeFirst();
  if (!inserted) throw new AppError('CONFLICT', 'identity linked concurrently', { reason: 'IDENTITY_LINKED' });
}

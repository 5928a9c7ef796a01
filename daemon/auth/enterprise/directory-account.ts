import type { User } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { SignInError } from '../oauth/provider-error.js';
import { createUser, findUser, findUserByEmail, normalizeEmail } from '../users.js';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'logger'>;

/** Who an enterprise directory (LDAP, or an organization's SAML identity provider) says signed in. */
export interface DirectoryIdentity {
  /** `ldap`, or `saml:<organization uid>`: the linked-identity provider. */
  provider: string;
  subject: string;
  email: string;
  name: string;
}

/**
 * The account of a directory sign-in: the one linked to (provider, subject); otherwise an
 * existing account is linked only when `addressVerified` (the server's own LDAP directory, which
 * the operator trusts) and the account's address was itself verified; an account whose address
 * was never verified is never taken over, and an organization's SAML provider (trusted by that
 * organization alone) never links to an existing account. Otherwise a new account without a
 * password is created, its address verified only when the directory is the server's own.
 */
export async function resolveDirectoryAccount(deps: Deps, identity: DirectoryIdentity, addressVerified: boolean): Promise<{ user: User; created: boolean }> {
  const now = deps.clock.now().toISOString();
  const email = normalizeEmail(identity.email);
  const linked = await deps.db.kysely
    .selectFrom('linked_identities')
    .select('user_uid')
    .where('provider', '=', identity.provider)
    .where('subject', '=', identity.subject)
    .executeTakeFirst();
  const linkedUser = linked ? await findUser(deps, linked.user_uid) : undefined;
  if (linkedUser) {
    await deps.db.kysely
      .updateTable('linked_identities')
      .set({ last_sign_in_at: now, email })
      .where('provider', '=', identity.provider)
      .where('subject', '=', identity.subject)
      .execute();
    return { user: linkedUser, created: false };
  }
  const existing = await findUserByEmail(deps, email);
  if (existing) {
    if (!addressVerified) throw new SignInError('account_exists', `${identity.provider}: an account already uses this address; it is not linked through an organization's identity provider`);
    if (!existing.email_verified) throw new SignInError('account_unverified', `${identity.provider}: the account of this address never verified it; it is not taken over`);
    await link(deps, identity, existing.uid);
    deps.logger.info({ user: existing.uid, provider: identity.provider }, 'directory identity linked to an existing account by verified e-mail');
    return { user: existing, created: false };
  }
  const user = await createUser(deps, { email, name: identity.name, passwordHash: null, emailVerified: addressVerified });
  await link(deps, identity, user.uid);
  deps.logger.info({ user: user.uid, provider: identity.provider }, 'account created by directory sign-in');
  return { user, created: true };
}

async function link(deps: Deps, identity: DirectoryIdentity, userUid: string): Promise<void> {
  const now = deps.clock.now().toISOString();
  const inserted = await deps.db.kysely
    .insertInto('linked_identities')
    .values({ provider: identity.provider, subject: identity.subject, user_uid: userUid, email: normalizeEmail(identity.email), created_at: now, last_sign_in_at: now })
    .onConflict((oc) => oc.columns(['provider', 'subject']).doNothing())
    .returning('subject')
    .executeTakeFirst();
  if (!inserted) throw new AppError('CONFLICT', 'identity linked concurrently', { reason: 'IDENTITY_LINKED' });
}

import type { User } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { SignInError } from '../oauth/provider-error.js';
import { createUser, findUser, findUserByEmail, normalizeEmail } from '../../accounts/users.js';

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
 * existing account is linked only when its own address was verified and either
 * `addressVerified` (the server's own LDAP directory, which the operator trusts) or the
 * directory is the identity provider of organization `speaksFor` and the account belongs to
 * that organization alone, below owner (see {@link organizationMayLink}); an account whose address
 * was never verified is never taken over. Otherwise a new account without a password is
 * created, its address verified only when the directory is the server's own.
 */
export async function resolveDirectoryAccount(
  deps: Deps,
  identity: DirectoryIdentity,
  addressVerified: boolean,
  speaksFor?: string,
): Promise<{ user: User; created: boolean }> {
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
    if (!existing.email_verified)
      throw new SignInError(
        addressVerified ? 'account_unverified' : 'account_exists',
        `${identity.provider}: the account of this address never verified it; it is not taken over`,
      );
    if (!addressVerified && !(speaksFor !== undefined && (await organizationMayLink(deps, existing, speaksFor)))) {
      throw new SignInError(
        'account_exists',
        `${identity.provider}: an account already uses this address and is not only a member of the organization; it is not linked through the organization's identity provider`,
      );
    }
    await link(deps, identity, existing.uid);
    deps.logger.info({ user: existing.uid, provider: identity.provider }, 'directory identity linked to an existing account by verified e-mail');
    return { user: existing, created: false };
  }
  const user = await createUser(deps, { email, name: identity.name, passwordHash: null, emailVerified: addressVerified });
  await link(deps, identity, user.uid);
  deps.logger.info({ user: user.uid, provider: identity.provider }, 'account created by directory sign-in');
  return { user, created: true };
}

/**
 * Whether an organization's identity provider may link an existing account: the provider speaks
 * for that organization alone, so the account must be a member of it and of no other (else its
 * admins, who choose the provider, could take over what the account holds elsewhere), not its
 * owner (owners keep their own way in and are exempt from "SAML required"), and not a super admin.
 */
async function organizationMayLink(deps: Deps, user: User, organizationUid: string): Promise<boolean> {
  if (user.super_admin) return false;
  const memberships = await deps.db.kysely.selectFrom('members').select(['organization_uid', 'role']).where('user_uid', '=', user.uid).execute();
  return memberships.length === 1 && memberships[0].organization_uid === organizationUid && memberships[0].role !== 'owner';
}

async function link(deps: Deps, identity: DirectoryIdentity, userUid: string): Promise<void> {
  const now = deps.clock.now().toISOString();
  const inserted = await deps.db.kysely
    .insertInto('linked_identities')
    .values({
      provider: identity.provider,
      subject: identity.subject,
      user_uid: userUid,
      email: normalizeEmail(identity.email),
      created_at: now,
      last_sign_in_at: now,
    })
    .onConflict((oc) => oc.columns(['provider', 'subject']).doNothing())
    .returning('subject')
    .executeTakeFirst();
  if (!inserted) throw new AppError('CONFLICT', 'identity linked concurrently', { reason: 'IDENTITY_LINKED' });
}

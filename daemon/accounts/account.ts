import type { Db } from '../db/connect.js';
import type { CallerAccount } from '../access/caller-account.js';
import type { Account } from '../../contract/responses.js';

/** The account as the API shows it (`GET /auth/me`). */
export type { Account };

/** Builds the account view of a user, with the organizations it belongs to. */
export async function accountView(db: Db, user: CallerAccount, tokenOrganizationUid?: string): Promise<Account> {
  const rows = await db.kysely
    .selectFrom('members')
    .innerJoin('organizations', 'organizations.uid', 'members.organization_uid')
    .select(['organizations.uid', 'organizations.slug', 'organizations.name', 'members.role'])
    .where('members.user_uid', '=', user.uid)
    .orderBy('organizations.slug')
    .execute();
  const organizations = rows.map(({ slug, name, role }) => ({ slug, name, role }));
  const tokenOrganization = tokenOrganizationUid === undefined ? undefined : rows.find((row) => row.uid === tokenOrganizationUid)?.slug;
  return {
    uid: user.uid,
    email: user.email,
    emailVerified: user.email_verified === 1,
    name: user.name,
    hasPassword: user.has_password === 1,
    twoFactorEnabled: user.two_factor_enabled === 1,
    superAdmin: user.super_admin === 1,
    mustChangePassword: user.must_change_password === 1,
    organizations,
    ...(tokenOrganization !== undefined ? { tokenOrganization } : {}),
  };
}

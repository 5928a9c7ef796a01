import type { User } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { forbidden } from '../../errors.js';

/**
 * The organizations of `user` that require SAML sign-in (`PUT /orgs/{org}/saml {required:
 * true}`); empty for a super admin, who keeps every way in as the break-glass account. An
 * owner is exempt in the organizations they own: the setting never locks out the people who
 * may turn it off.
 */
export async function samlRequiredOrganizations(deps: Pick<AppDeps, 'db'>, user: User): Promise<{ uid: string; slug: string }[]> {
  if (user.super_admin) return [];
  return deps.db.kysely
    .selectFrom('members')
    .innerJoin('saml_providers', 'saml_providers.organization_uid', 'members.organization_uid')
    .innerJoin('organizations', 'organizations.uid', 'members.organization_uid')
    .select(['organizations.uid', 'organizations.slug'])
    .where('members.user_uid', '=', user.uid)
    .where('members.role', '!=', 'owner')
    .where('saml_providers.required', '=', 1)
    .execute();
}

/** 403 when a member of an organization that requires SAML signs in any other way (`method`). */
export async function refuseWhereSamlRequired(deps: Pick<AppDeps, 'db' | 'logger'>, user: User, method: string): Promise<void> {
  const orgs = await samlRequiredOrganizations(deps, user);
  if (orgs.length === 0) return;
  deps.logger.warn({ user: user.uid, method, orgs: orgs.map((o) => o.slug) }, 'sign-in refused: an organization of the account requires SAML');
  throw forbidden(`Your organization ${orgs[0].slug} requires single sign-on: sign in at /api/v1/auth/saml/${orgs[0].slug}/login.`);
}

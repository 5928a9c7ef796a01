import { recordAuditInUserOrganizations } from '../../audit/audit-log.js';
import type { User } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { applyGroupRoles } from '../../orgs/group-roles.js';
import { resolveDirectoryAccount } from '../enterprise/directory-account.js';
import { SignInError } from '../oauth/provider-error.js';
import { authenticateInDirectory, DirectoryUnavailable } from './directory.js';

/**
 * The LDAP leg of `POST /auth/login`, for an address with no local password: the directory
 * checks the password, the account is found, linked or created (resolveDirectoryAccount), the
 * user's groups are mapped to roles, and `auth.signed_in` is recorded. Undefined when the
 * directory does not know the address or the password is wrong, or when the account cannot be
 * signed into this way (the caller answers as for a wrong password); 503 when the directory
 * cannot be reached.
 */
export async function ldapSignIn(deps: AppDeps, email: string, password: string): Promise<User | undefined> {
  const config = deps.config.auth.ldap;
  if (!config) return undefined;
  let found;
  try {
    found = await authenticateInDirectory(config, email, password);
  } catch (error) {
    if (!(error instanceof DirectoryUnavailable)) throw error;
    deps.logger.error({ err: { message: error.message } }, 'LDAP sign-in failed: directory unavailable');
    throw new AppError('UNAVAILABLE', 'The sign-in directory cannot be reached; try again later.');
  }
  if (!found) return undefined;
  let user: User;
  try {
    ({ user } = await resolveDirectoryAccount(deps, { provider: 'ldap', subject: found.subject, email: found.email, name: found.name }, true));
  } catch (error) {
    if (!(error instanceof SignInError)) throw error;
    deps.logger.warn({ reason: error.reason }, `LDAP sign-in refused: ${error.message}`);
    return undefined;
  }
  await applyGroupRoles(deps, user, found.groups, { via: 'ldap' });
  await recordAuditInUserOrganizations(deps.db.kysely, deps.clock, user.uid, {
    kind: 'auth.signed_in',
    actorUid: user.uid,
    targetUid: user.uid,
    data: { method: 'ldap' },
  });
  deps.logger.info({ user: user.uid, groups: found.groups.length }, 'LDAP sign-in');
  return user;
}

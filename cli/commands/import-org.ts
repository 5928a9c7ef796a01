import type { Account } from '../../contract/index.js';
import type { ApiClient } from '../client.js';
import type { CommandDeps } from '../context.js';
import { usageError } from '../errors.js';
import { chosenOrg, severalOrgsError } from './checks-org.js';

/**
 * The organization an import goes to: `--org`, else `SVC_ORG`, else the one a personal access
 * token reaches (as `/auth/me` names it), else the account's only organization, else `default`
 * when the account belongs to it. Several and no way to choose is a usage error listing them,
 * rather than a guess that would write into the wrong place.
 */
export async function resolveImportOrg(options: { org?: string }, deps: CommandDeps, client: ApiClient): Promise<string> {
  const chosen = chosenOrg(options, deps);
  if (chosen) return chosen;
  const me = await client.get<Account>('/auth/me');
  if (me.tokenOrganization) return me.tokenOrganization;
  const slugs = me.organizations.map((org) => org.slug);
  if (slugs.length === 0) throw usageError('this account belongs to no organization');
  if (slugs.length === 1) return slugs[0];
  if (slugs.includes('default')) return 'default';
  throw severalOrgsError(slugs);
}

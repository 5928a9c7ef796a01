import { ApiError, PERSONAL_TOKEN_PREFIX, type ApiClient } from '../client.js';
import type { CommandDeps } from '../context.js';
import { accountOrgs, chosenOrg, orgPath, severalOrgsError } from './checks-org.js';

/**
 * The organization an import goes to: `--org`, else `SVC_ORG`, else the account's only
 * organization, else the one a personal access token is bound to (the only one it may reach),
 * else `default` when the account belongs to it. Several and no way to choose is a usage
 * error listing them, rather than a guess that would write into the wrong place.
 */
export async function resolveImportOrg(options: { org?: string }, deps: CommandDeps, client: ApiClient): Promise<string> {
  const chosen = chosenOrg(options, deps);
  if (chosen) return chosen;
  const slugs = await accountOrgs(client);
  if (slugs.length === 1) return slugs[0];
  if (client.token?.startsWith(PERSONAL_TOKEN_PREFIX)) {
    for (const slug of slugs) {
      try {
        await client.get(orgPath(slug));
        return slug;
      } catch (error) {
        // 403: the token belongs to another organization of the account; try the next.
        if (!(error instanceof ApiError) || error.status !== 403) throw error;
      }
    }
  }
  if (slugs.includes('default')) return 'default';
  throw severalOrgsError(slugs);
}
